#!/usr/bin/env python3
# SPDX-License-Identifier: Apache-2.0
"""Writes the benchmark workloads, the same bytes on every run (a fixed seed, no clock).

    python3 Benchmarks/workloads/generate.py OUT_DIR

OUT_DIR receives:
  github-user.json  one user shaped like GitHub's REST API user object (snake_case keys)
  timeline.json     a Weibo-like home timeline page: 20 statuses, nested users, picture objects,
                    retweeted statuses, "Fri Sep 04 00:12:21 +0800 2015" dates, CJK and emoji, a string cursor
  users-1000.json   an array of 1,000 GitHub users
Models: GithubUser in config/schemas, WeiboTimeline in Benchmarks/schemas.
"""
import json
import random
import sys
from pathlib import Path

SEED = 20150904
WEEKDAYS = ["Mon", "Tue", "Wed", "Thu", "Fri", "Sat", "Sun"]
MONTHS = ["Jan", "Feb", "Mar", "Apr", "May", "Jun", "Jul", "Aug", "Sep", "Oct", "Nov", "Dec"]
WORDS = ["今天", "天气", "不错", "我们", "一起", "去", "看", "电影", "微博", "北京", "上海", "朋友",
         "生活", "工作", "周末", "咖啡", "音乐", "旅行", "分享", "图片"]
EMOJI = ["😀", "🎉", "🌧", "☕", "🚀", "❤️", "👍", "🐼"]
CITIES = ["北京 海淀区", "上海 浦东新区", "广东 深圳", "浙江 杭州", "四川 成都"]


def iso_date(rng):
    return "20%02d-%02d-%02dT%02d:%02d:%02dZ" % (
        rng.randint(8, 24), rng.randint(1, 12), rng.randint(1, 28),
        rng.randint(0, 23), rng.randint(0, 59), rng.randint(0, 59))


def weibo_date(rng):
    # Weekday names need not match the date: parsers read them but, like NSDateFormatter, do not check them.
    return "%s %s %02d %02d:%02d:%02d +0800 %d" % (
        rng.choice(WEEKDAYS), rng.choice(MONTHS), rng.randint(1, 28),
        rng.randint(0, 23), rng.randint(0, 59), rng.randint(0, 59), rng.randint(2009, 2016))


def github_user(rng, n, profile=None):
    login = "octo-%s%d" % ("".join(rng.choice("abcdefghijklmnopqrstuvwxyz") for _ in range(6)), n)
    base = "https://api.github.com/users/" + login
    user_id = rng.randint(1, 200_000_000)
    has_profile = rng.random() < 0.7 if profile is None else profile
    return {
        "login": login,
        "id": user_id,
        "node_id": "MDQ6VXNlcj%07d" % (user_id % 10_000_000),
        "avatar_url": "https://avatars.githubusercontent.com/u/%d?v=4" % user_id,
        "gravatar_id": "",
        "url": base,
        "html_url": "https://github.com/" + login,
        "followers_url": base + "/followers",
        "following_url": base + "/following{/other_user}",
        "gists_url": base + "/gists{/gist_id}",
        "starred_url": base + "/starred{/owner}{/repo}",
        "subscriptions_url": base + "/subscriptions",
        "organizations_url": base + "/orgs",
        "repos_url": base + "/repos",
        "events_url": base + "/events{/privacy}",
        "received_events_url": base + "/received_events",
        "type": "User",
        "site_admin": rng.random() < 0.05,
        "name": ("The Octo %d" % n) if has_profile else None,
        "company": "@github" if has_profile else None,
        "blog": ("https://%s.github.io/blog" % login) if has_profile else "",
        "location": "San Francisco" if has_profile else None,
        "email": None,
        "hireable": (rng.random() < 0.5) if has_profile else None,
        "bio": ("Building developer tools, one commit at a time. Open source maintainer, occasional speaker, "
                "\"quotes\" and a tab\there.") if has_profile else None,
        "twitter_username": None,
        "public_repos": rng.randint(0, 400),
        "public_gists": rng.randint(0, 100),
        "followers": rng.randint(0, 100_000),
        "following": rng.randint(0, 500),
        "created_at": iso_date(rng),
        "updated_at": iso_date(rng),
    }


def weibo_text(rng, words):
    parts = [rng.choice(WORDS) for _ in range(words)]
    for _ in range(rng.randint(1, 3)):
        parts.insert(rng.randint(0, len(parts)), rng.choice(EMOJI))
    return "".join(parts) + " http://t.cn/R%05d" % rng.randint(0, 99999)


def weibo_user(rng):
    user_id = rng.randint(1_000_000_000, 6_000_000_000)
    return {
        "id": user_id,
        "idstr": str(user_id),
        "screen_name": "用户" + str(user_id % 100000),
        "name": "用户" + str(user_id % 100000),
        "province": str(rng.randint(11, 65)),
        "city": str(rng.randint(1, 20)),
        "location": rng.choice(CITIES),
        "description": weibo_text(rng, 4),
        "url": "",
        "profile_image_url": "http://tp%d.sinaimg.cn/%d/50/0/1" % (rng.randint(1, 4), user_id),
        "domain": "",
        "gender": rng.choice(["m", "f"]),
        "followers_count": rng.randint(0, 2_000_000),
        "friends_count": rng.randint(0, 2000),
        "statuses_count": rng.randint(0, 50_000),
        "favourites_count": rng.randint(0, 5000),
        "created_at": weibo_date(rng),
        "following": rng.random() < 0.5,
        "allow_all_act_msg": False,
        "geo_enabled": True,
        "verified": rng.random() < 0.3,
        "verified_type": rng.choice([-1, 0, 220]),
        "avatar_large": "http://tp%d.sinaimg.cn/%d/180/0/1" % (rng.randint(1, 4), user_id),
        "lang": "zh-cn",
    }


def weibo_picture(rng):
    pid = "%016x" % rng.getrandbits(64)
    width, height = rng.randint(200, 2000), rng.randint(200, 2000)
    return {
        "pic_id": pid,
        "thumbnail": {"url": "http://ww1.sinaimg.cn/thumbnail/%s.jpg" % pid, "width": 120, "height": 90},
        "large": {"url": "http://ww1.sinaimg.cn/large/%s.jpg" % pid, "width": width, "height": height},
        "object_type": "pic",
    }


def weibo_status(rng, retweet_allowed):
    status_id = rng.randint(3_000_000_000_000_000, 4_100_000_000_000_000)
    pictures = [weibo_picture(rng) for _ in range(rng.choice([0, 0, 1, 2]))]
    status = {
        "created_at": weibo_date(rng),
        "id": status_id,
        "idstr": str(status_id),
        "mid": str(status_id),
        "text": weibo_text(rng, rng.randint(6, 20)),
        "source": '<a href="http://app.weibo.com/t/feed/%d" rel="nofollow">微博 weibo.com</a>' % rng.randint(1, 9),
        "favorited": False,
        "truncated": False,
        "pic_ids": [p["pic_id"] for p in pictures],
        "pic_infos": pictures,
        "geo": None,
        "user": weibo_user(rng),
        "reposts_count": rng.randint(0, 5000),
        "comments_count": rng.randint(0, 5000),
        "attitudes_count": rng.randint(0, 20000),
        "visible": {"type": 0, "list_id": 0},
    }
    if pictures:
        status["thumbnail_pic"] = pictures[0]["thumbnail"]["url"]
        status["original_pic"] = pictures[0]["large"]["url"]
    if retweet_allowed and rng.random() < 0.3:
        status["retweeted_status"] = weibo_status(rng, False)
    return status


def timeline(rng):
    return {
        "statuses": [weibo_status(rng, True) for _ in range(20)],
        "advertises": [],
        "hasvisible": False,
        "previous_cursor": 0,
        "next_cursor": str(rng.randint(3_900_000_000_000_000, 4_000_000_000_000_000)),
        "total_number": 150,
        "interval": 0,
    }


def write(path, value):
    path.write_text(json.dumps(value, ensure_ascii=False, indent=None, separators=(",", ":")), encoding="utf-8")


def main():
    if len(sys.argv) != 2:
        sys.exit("usage: generate.py OUT_DIR")
    out = Path(sys.argv[1])
    out.mkdir(parents=True, exist_ok=True)
    write(out / "github-user.json", github_user(random.Random(SEED), 1, profile=True))
    write(out / "timeline.json", timeline(random.Random(SEED + 1)))
    users = random.Random(SEED + 2)
    write(out / "users-1000.json", [github_user(users, n) for n in range(1000)])


if __name__ == "__main__":
    main()
