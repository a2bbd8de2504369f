# SPDX-License-Identifier: Apache-2.0
"""msgspec models of the benchmark's schemas (config/schemas/github-user.json, Benchmarks/schemas/weibo.json) for
Benchmarks/python/peers.py.

A msgspec rename applies to both decoding and encoding, so there are two sets of Structs: the input Structs
(`…In`) have the properties as attributes and the schemas' keys as encoded names, and decode with strict=False
(which coerces "11" to 11); they are converted (from_attributes) into the output Structs, named like the
properties, which are encoded. TransformServer's output rules: numbers and bools are always written (0 / false
when absent or null), other values are omitted when absent or null (omit_defaults, with None defaults).
"""
from datetime import datetime
from typing import Optional

import msgspec
from msgspec import Struct, field

from dates import parse_weibo_date


def zero_nulls(struct, names, default):
    """TransformServer writes a number or bool that is null or absent as 0 / false; msgspec rejects null, so
    these fields are decoded as optional and defaulted here (called from __post_init__)."""
    for name in names:
        if getattr(struct, name) is None:
            setattr(struct, name, default)


# Input side: attribute names are the properties, encoded names the schema's keys.
class GithubUserIn(Struct):
    login: str
    userID: int = field(name="id")
    nodeID: Optional[str] = field(default=None, name="node_id")
    avatarURL: Optional[str] = field(default=None, name="avatar_url")
    gravatarID: Optional[str] = field(default=None, name="gravatar_id")
    url: Optional[str] = None
    htmlURL: Optional[str] = field(default=None, name="html_url")
    followersURL: Optional[str] = field(default=None, name="followers_url")
    followingURL: Optional[str] = field(default=None, name="following_url")
    gistsURL: Optional[str] = field(default=None, name="gists_url")
    starredURL: Optional[str] = field(default=None, name="starred_url")
    subscriptionsURL: Optional[str] = field(default=None, name="subscriptions_url")
    organizationsURL: Optional[str] = field(default=None, name="organizations_url")
    reposURL: Optional[str] = field(default=None, name="repos_url")
    eventsURL: Optional[str] = field(default=None, name="events_url")
    receivedEventsURL: Optional[str] = field(default=None, name="received_events_url")
    type: Optional[str] = None
    siteAdmin: Optional[bool] = field(default=None, name="site_admin")
    name: Optional[str] = None
    company: Optional[str] = None
    blog: Optional[str] = None
    location: Optional[str] = None
    email: Optional[str] = None
    hireable: Optional[bool] = None
    bio: Optional[str] = None
    publicRepos: Optional[int] = field(default=None, name="public_repos")
    publicGists: Optional[int] = field(default=None, name="public_gists")
    followers: Optional[int] = None
    following: Optional[int] = None
    createdAt: Optional[datetime] = field(default=None, name="created_at")
    updatedAt: Optional[datetime] = field(default=None, name="updated_at")

    def __post_init__(self):
        zero_nulls(self, ("siteAdmin", "hireable"), False)
        zero_nulls(self, ("publicRepos", "publicGists", "followers", "following"), 0)


class WeiboPictureSizeIn(Struct):
    url: Optional[str] = None
    width: Optional[int] = None
    height: Optional[int] = None

    def __post_init__(self):
        zero_nulls(self, ("width", "height"), 0)


class WeiboPictureIn(Struct):
    pictureID: Optional[str] = field(default=None, name="pic_id")
    thumbnail: Optional[WeiboPictureSizeIn] = None
    large: Optional[WeiboPictureSizeIn] = None
    objectType: Optional[str] = field(default=None, name="object_type")


# msgspec reads only RFC 3339 datetimes, so Weibo dates are decoded as strings and parsed in __post_init__.
class WeiboUserIn(Struct):
    userID: int = field(name="id")
    screenName: Optional[str] = field(default=None, name="screen_name")
    name: Optional[str] = None
    province: Optional[int] = None
    city: Optional[int] = None
    location: Optional[str] = None
    userDescription: Optional[str] = field(default=None, name="description")
    profileImageURL: Optional[str] = field(default=None, name="profile_image_url")
    gender: Optional[str] = None
    followersCount: Optional[int] = field(default=None, name="followers_count")
    friendsCount: Optional[int] = field(default=None, name="friends_count")
    statusesCount: Optional[int] = field(default=None, name="statuses_count")
    createdAt: Optional[str] = field(default=None, name="created_at")
    following: Optional[bool] = None
    verified: Optional[bool] = None
    verifiedType: Optional[int] = field(default=None, name="verified_type")
    avatarLarge: Optional[str] = field(default=None, name="avatar_large")
    language: Optional[str] = field(default=None, name="lang")

    def __post_init__(self):
        zero_nulls(self, ("province", "city", "followersCount", "friendsCount", "statusesCount",
                          "verifiedType"), 0)
        zero_nulls(self, ("following", "verified"), False)
        if self.createdAt is not None:
            self.createdAt = parse_weibo_date(self.createdAt)


class WeiboStatusIn(Struct):
    statusID: int = field(name="id")
    idString: Optional[str] = field(default=None, name="idstr")
    mid: Optional[str] = None
    createdAt: Optional[str] = field(default=None, name="created_at")
    text: Optional[str] = None
    source: Optional[str] = None
    favorited: Optional[bool] = None
    truncated: Optional[bool] = None
    pictureIDs: Optional[list[str]] = field(default=None, name="pic_ids")
    pictures: Optional[list[WeiboPictureIn]] = field(default=None, name="pic_infos")
    thumbnailPicture: Optional[str] = field(default=None, name="thumbnail_pic")
    originalPicture: Optional[str] = field(default=None, name="original_pic")
    user: Optional[WeiboUserIn] = None
    retweetedStatus: Optional["WeiboStatusIn"] = field(default=None, name="retweeted_status")
    repostsCount: Optional[int] = field(default=None, name="reposts_count")
    commentsCount: Optional[int] = field(default=None, name="comments_count")
    attitudesCount: Optional[int] = field(default=None, name="attitudes_count")

    def __post_init__(self):
        zero_nulls(self, ("favorited", "truncated"), False)
        zero_nulls(self, ("repostsCount", "commentsCount", "attitudesCount"), 0)
        if self.createdAt is not None:
            self.createdAt = parse_weibo_date(self.createdAt)


class WeiboTimelineIn(Struct):
    statuses: Optional[list[WeiboStatusIn]] = None
    hasVisible: Optional[bool] = field(default=None, name="hasvisible")
    previousCursor: Optional[int] = field(default=None, name="previous_cursor")
    nextCursor: Optional[int] = field(default=None, name="next_cursor")  # a string; strict=False reads it
    totalNumber: Optional[int] = field(default=None, name="total_number")
    interval: Optional[int] = None

    def __post_init__(self):
        zero_nulls(self, ("previousCursor", "nextCursor", "totalNumber", "interval"), 0)
        zero_nulls(self, ("hasVisible",), False)


# Output side: the property names; numbers and bools have no default, so they are always written, while the
# other fields default to None, which omit_defaults leaves out.
class GithubUser(Struct, omit_defaults=True, kw_only=True):
    login: str
    userID: int
    nodeID: Optional[str] = None
    avatarURL: Optional[str] = None
    gravatarID: Optional[str] = None
    url: Optional[str] = None
    htmlURL: Optional[str] = None
    followersURL: Optional[str] = None
    followingURL: Optional[str] = None
    gistsURL: Optional[str] = None
    starredURL: Optional[str] = None
    subscriptionsURL: Optional[str] = None
    organizationsURL: Optional[str] = None
    reposURL: Optional[str] = None
    eventsURL: Optional[str] = None
    receivedEventsURL: Optional[str] = None
    type: Optional[str] = None
    siteAdmin: bool
    name: Optional[str] = None
    company: Optional[str] = None
    blog: Optional[str] = None
    location: Optional[str] = None
    email: Optional[str] = None
    hireable: bool
    bio: Optional[str] = None
    publicRepos: int
    publicGists: int
    followers: int
    following: int
    createdAt: Optional[datetime] = None
    updatedAt: Optional[datetime] = None


class WeiboPictureSize(Struct, omit_defaults=True, kw_only=True):
    url: Optional[str] = None
    width: int
    height: int


class WeiboPicture(Struct, omit_defaults=True, kw_only=True):
    pictureID: Optional[str] = None
    thumbnail: Optional[WeiboPictureSize] = None
    large: Optional[WeiboPictureSize] = None
    objectType: Optional[str] = None


class WeiboUser(Struct, omit_defaults=True, kw_only=True):
    userID: int
    screenName: Optional[str] = None
    name: Optional[str] = None
    province: int
    city: int
    location: Optional[str] = None
    userDescription: Optional[str] = None
    profileImageURL: Optional[str] = None
    gender: Optional[str] = None
    followersCount: int
    friendsCount: int
    statusesCount: int
    createdAt: Optional[datetime] = None
    following: bool
    verified: bool
    verifiedType: int
    avatarLarge: Optional[str] = None
    language: Optional[str] = None


class WeiboStatus(Struct, omit_defaults=True, kw_only=True):
    statusID: int
    idString: Optional[str] = None
    mid: Optional[str] = None
    createdAt: Optional[datetime] = None
    text: Optional[str] = None
    source: Optional[str] = None
    favorited: bool
    truncated: bool
    pictureIDs: Optional[list[str]] = None
    pictures: Optional[list[WeiboPicture]] = None
    thumbnailPicture: Optional[str] = None
    originalPicture: Optional[str] = None
    user: Optional[WeiboUser] = None
    retweetedStatus: Optional["WeiboStatus"] = None
    repostsCount: int
    commentsCount: int
    attitudesCount: int


class WeiboTimeline(Struct, omit_defaults=True, kw_only=True):
    statuses: Optional[list[WeiboStatus]] = None
    hasVisible: bool
    previousCursor: int
    nextCursor: int
    totalNumber: int
    interval: int


def converter(model, array):
    """body -> JSON of the models: decode, convert to the output Structs, encode."""
    source, target = {"GithubUser": (GithubUserIn, GithubUser),
                      "WeiboTimeline": (WeiboTimelineIn, WeiboTimeline)}[model]
    if array:
        source, target = list[source], list[target]
    decoder = msgspec.json.Decoder(source, strict=False)
    encoder = msgspec.json.Encoder()
    convert = msgspec.convert
    return lambda body: encoder.encode(convert(decoder.decode(body), target, from_attributes=True))
