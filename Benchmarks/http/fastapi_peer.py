#!/usr/bin/env python3
"""The FastAPI + pydantic v2 peer for scripts/bench-http.sh: POST /convert/GithubUser does what TransformServer's
GithubUser schema (config/schemas/github-user.json) does to a GitHub REST API user object, written the way a
Python service would write it.

    uvicorn --app-dir Benchmarks/http fastapi_peer:app --host 127.0.0.1 --port PORT --workers N \
            --loop uvloop --http httptools --no-access-log

The mapping, as in the schema:
  - snake_case input keys (validation aliases) -> camelCase output names (the field names);
  - login and userID (input "id") are required;
  - bool and integer fields default to false/0 and are always written;
  - string and URL fields that are absent or null are left out of the output ("" is kept);
  - dates are written as ISO 8601 in UTC with a "Z" and whole seconds;
  - unknown input keys (twitter_username, ...) are ignored.
The answer is semantically equal to ours (the bench script compares the two with json.loads); key order and
bytes may differ. Input validation is pydantic's (lax mode), not our coercion rules: for this well-formed
workload both accept everything and change nothing.
"""
from datetime import datetime, timezone
from typing import Annotated, Optional

from fastapi import FastAPI, Response
from pydantic import AfterValidator, BaseModel, ConfigDict, Field


def _utc_whole_seconds(value: datetime) -> datetime:
    """A date in UTC without fractions, so pydantic writes it as 2016-07-03T10:22:47Z."""
    if value.tzinfo is None:
        value = value.replace(tzinfo=timezone.utc)
    return value.astimezone(timezone.utc).replace(microsecond=0)


UTCDate = Annotated[Optional[datetime], AfterValidator(lambda v: None if v is None else _utc_whole_seconds(v))]


class GithubUser(BaseModel):
    # A field whose output name differs from its input key (the schema's "key") reads that key only
    # (validation_alias), as our schema does.
    model_config = ConfigDict(extra="ignore", populate_by_name=False)

    login: str
    userID: int = Field(validation_alias="id", ge=0)
    nodeID: Optional[str] = Field(None, validation_alias="node_id")
    avatarURL: Optional[str] = Field(None, validation_alias="avatar_url")
    gravatarID: Optional[str] = Field(None, validation_alias="gravatar_id")
    url: Optional[str] = None
    htmlURL: Optional[str] = Field(None, validation_alias="html_url")
    followersURL: Optional[str] = Field(None, validation_alias="followers_url")
    followingURL: Optional[str] = Field(None, validation_alias="following_url")
    gistsURL: Optional[str] = Field(None, validation_alias="gists_url")
    starredURL: Optional[str] = Field(None, validation_alias="starred_url")
    subscriptionsURL: Optional[str] = Field(None, validation_alias="subscriptions_url")
    organizationsURL: Optional[str] = Field(None, validation_alias="organizations_url")
    reposURL: Optional[str] = Field(None, validation_alias="repos_url")
    eventsURL: Optional[str] = Field(None, validation_alias="events_url")
    receivedEventsURL: Optional[str] = Field(None, validation_alias="received_events_url")
    type: Optional[str] = None
    siteAdmin: bool = Field(False, validation_alias="site_admin")
    name: Optional[str] = None
    company: Optional[str] = None
    blog: Optional[str] = None
    location: Optional[str] = None
    email: Optional[str] = None
    # A JSON null reads as the default (false/0), as our schema does for scalar types.
    hireable: Optional[bool] = None
    bio: Optional[str] = None
    publicRepos: Optional[int] = Field(None, validation_alias="public_repos", ge=0, le=2**32 - 1)
    publicGists: Optional[int] = Field(None, validation_alias="public_gists", ge=0, le=2**32 - 1)
    followers: Optional[int] = Field(None, ge=0, le=2**32 - 1)
    following: Optional[int] = Field(None, ge=0, le=2**32 - 1)
    createdAt: UTCDate = Field(None, validation_alias="created_at")
    updatedAt: UTCDate = Field(None, validation_alias="updated_at")

    def to_json(self) -> bytes:
        """Numbers and booleans always written (null -> 0/false), absent strings and dates left out."""
        for field in ("hireable", "siteAdmin"):
            if getattr(self, field) is None:
                setattr(self, field, False)
        for field in ("publicRepos", "publicGists", "followers", "following"):
            if getattr(self, field) is None:
                setattr(self, field, 0)
        return self.model_dump_json(exclude_none=True).encode()


app = FastAPI(openapi_url=None, docs_url=None, redoc_url=None)


@app.post("/convert/GithubUser")
async def convert_github_user(user: GithubUser) -> Response:
    return Response(content=user.to_json(), media_type="application/json; charset=utf-8")


@app.get("/health")
async def health() -> dict:
    return {"status": "ok"}
