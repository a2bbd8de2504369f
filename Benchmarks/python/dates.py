# SPDX-License-Identifier: Apache-2.0
"""Weibo's date form, shared by the Python peers' models."""
from datetime import datetime, timezone

WEIBO_DATE = "%a %b %d %H:%M:%S %z %Y"  # Fri Sep 04 00:12:21 +0800 2015


def parse_weibo_date(text):
    """Weibo's date form as an aware datetime in UTC (so that it is written with "Z")."""
    return datetime.strptime(text, WEIBO_DATE).astimezone(timezone.utc)
