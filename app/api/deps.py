"""Dependencies of the routes, as ``Annotated`` aliases."""

from __future__ import annotations

from collections.abc import Iterator
from typing import Annotated

from fastapi import Depends, HTTPException, Request, status
from fastapi.security import HTTPAuthorizationCredentials, HTTPBearer
from sqlalchemy.orm import Session

from app.agent.runner import Agent
from app.api.jobs import IngestWorker
from app.api.metrics import Metrics
from app.api.turns import Turns
from app.container import Container
from app.keys import KeyInfo, verify_key
from app.settings import Settings

_bearer = HTTPBearer(auto_error=False, description="An API key from `aura keys create NAME`.")


def get_services(request: Request) -> Container:
    return request.app.state.services


def get_agent(request: Request) -> Agent:
    return request.app.state.agent


def get_turns(request: Request) -> Turns:
    return request.app.state.turns


def get_worker(request: Request) -> IngestWorker:
    return request.app.state.worker


def get_settings(request: Request) -> Settings:
    return request.app.state.settings


def get_metrics(request: Request) -> Metrics:
    return request.app.state.metrics


ServicesDep = Annotated[Container, Depends(get_services)]
AgentDep = Annotated[Agent, Depends(get_agent)]
TurnsDep = Annotated[Turns, Depends(get_turns)]
WorkerDep = Annotated[IngestWorker, Depends(get_worker)]
SettingsDep = Annotated[Settings, Depends(get_settings)]
MetricsDep = Annotated[Metrics, Depends(get_metrics)]


def get_session(services: ServicesDep) -> Iterator[Session]:
    with services.sessions() as session:
        yield session


SessionDep = Annotated[Session, Depends(get_session)]


def _unauthorized(detail: str) -> HTTPException:
    return HTTPException(status.HTTP_401_UNAUTHORIZED, detail, headers={"WWW-Authenticate": "Bearer"})


def current_key(
    services: ServicesDep, creds: Annotated[HTTPAuthorizationCredentials | None, Depends(_bearer)]
) -> KeyInfo:
    if creds is None or not creds.credentials:
        raise _unauthorized("missing API key: send 'Authorization: Bearer <key>' (create one with `aura keys create NAME`)")
    key, reason = verify_key(services.sessions, creds.credentials)
    if key is None:
        raise _unauthorized(reason)
    return key


CurrentKey = Annotated[KeyInfo, Depends(current_key)]


def not_found(what: str, ident: str) -> HTTPException:
    return HTTPException(status.HTTP_404_NOT_FOUND, f"{what} '{ident}' not found")
