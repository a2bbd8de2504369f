# SPDX-License-Identifier: Apache-2.0
"""pydantic v2 models of the benchmark's schemas (config/schemas/github-user.json, Benchmarks/schemas/weibo.json)
for Benchmarks/python/peers.py.

Field names are the schemas' property names, which serialisation writes; validation aliases read the schemas'
keys; lax mode coerces "11" to 11. model_dump_json(exclude_none=True) omits values that are absent or null, as
TransformServer does, while numbers and bools are always written (0 / false when absent or null).
"""
from datetime import datetime
from typing import Annotated, Optional

from pydantic import BaseModel, BeforeValidator, Field, TypeAdapter

from dates import parse_weibo_date


def none_to(default):
    """TransformServer writes a number or bool that is null as its implicit default; pydantic would reject it."""
    return BeforeValidator(lambda value: default if value is None else value)


Int = Annotated[int, none_to(0)]
Bool = Annotated[bool, none_to(False)]
# Weibo dates are not ISO 8601, which is all pydantic reads; GitHub's are read natively.
WeiboDate = Annotated[datetime, BeforeValidator(lambda v: parse_weibo_date(v) if isinstance(v, str) else v)]


def key(name, default=None):
    """A field read from the input key `name`, written under its own name."""
    return Field(default, validation_alias=name)


class GithubUser(BaseModel):
    login: str
    userID: int = Field(validation_alias="id")
    nodeID: Optional[str] = key("node_id")
    avatarURL: Optional[str] = key("avatar_url")
    gravatarID: Optional[str] = key("gravatar_id")
    url: Optional[str] = None
    htmlURL: Optional[str] = key("html_url")
    followersURL: Optional[str] = key("followers_url")
    followingURL: Optional[str] = key("following_url")
    gistsURL: Optional[str] = key("gists_url")
    starredURL: Optional[str] = key("starred_url")
    subscriptionsURL: Optional[str] = key("subscriptions_url")
    organizationsURL: Optional[str] = key("organizations_url")
    reposURL: Optional[str] = key("repos_url")
    eventsURL: Optional[str] = key("events_url")
    receivedEventsURL: Optional[str] = key("received_events_url")
    type: Optional[str] = None
    siteAdmin: Bool = key("site_admin", False)
    name: Optional[str] = None
    company: Optional[str] = None
    blog: Optional[str] = None
    location: Optional[str] = None
    email: Optional[str] = None
    hireable: Bool = False
    bio: Optional[str] = None
    publicRepos: Int = key("public_repos", 0)
    publicGists: Int = key("public_gists", 0)
    followers: Int = 0
    following: Int = 0
    createdAt: Optional[datetime] = key("created_at")
    updatedAt: Optional[datetime] = key("updated_at")


class WeiboPictureSize(BaseModel):
    url: Optional[str] = None
    width: Int = 0
    height: Int = 0


class WeiboPicture(BaseModel):
    pictureID: Optional[str] = key("pic_id")
    thumbnail: Optional[WeiboPictureSize] = None
    large: Optional[WeiboPictureSize] = None
    objectType: Optional[str] = key("object_type")


class WeiboUser(BaseModel):
    userID: int = Field(validation_alias="id")
    screenName: Optional[str] = key("screen_name")
    name: Optional[str] = None
    province: Int = 0
    city: Int = 0
    location: Optional[str] = None
    userDescription: Optional[str] = key("description")
    profileImageURL: Optional[str] = key("profile_image_url")
    gender: Optional[str] = None
    followersCount: Int = key("followers_count", 0)
    friendsCount: Int = key("friends_count", 0)
    statusesCount: Int = key("statuses_count", 0)
    createdAt: Optional[WeiboDate] = key("created_at")
    following: Bool = False
    verified: Bool = False
    verifiedType: Int = key("verified_type", 0)
    avatarLarge: Optional[str] = key("avatar_large")
    language: Optional[str] = key("lang")


class WeiboStatus(BaseModel):
    statusID: int = Field(validation_alias="id")
    idString: Optional[str] = key("idstr")
    mid: Optional[str] = None
    createdAt: Optional[WeiboDate] = key("created_at")
    text: Optional[str] = None
    source: Optional[str] = None
    favorited: Bool = False
    truncated: Bool = False
    pictureIDs: Optional[list[str]] = key("pic_ids")
    pictures: Optional[list[WeiboPicture]] = key("pic_infos")
    thumbnailPicture: Optional[str] = key("thumbnail_pic")
    originalPicture: Optional[str] = key("original_pic")
    user: Optional[WeiboUser] = None
    retweetedStatus: Optional["WeiboStatus"] = key("retweeted_status")
    repostsCount: Int = key("reposts_count", 0)
    commentsCount: Int = key("comments_count", 0)
    attitudesCount: Int = key("attitudes_count", 0)

WeiboStatus.model_rebuild()  # resolves the self-reference


class WeiboTimeline(BaseModel):
    statuses: Optional[list[WeiboStatus]] = None
    hasVisible: Bool = key("hasvisible", False)
    previousCursor: Int = key("previous_cursor", 0)
    nextCursor: Int = key("next_cursor", 0)  # the API sends a string; lax mode reads it
    totalNumber: Int = key("total_number", 0)
    interval: Int = 0


def converter(model, array):
    """body -> JSON of the models: validate, then serialise."""
    root = {"GithubUser": GithubUser, "WeiboTimeline": WeiboTimeline}[model]
    if array:
        adapter = TypeAdapter(list[root])
        return lambda body: adapter.dump_json(adapter.validate_json(body), exclude_none=True)
    # model_dump_json answers a str (the other peers bytes); it is what a pydantic program calls.
    return lambda body: root.model_validate_json(body).model_dump_json(exclude_none=True)
