"""The request filter of the preview (docs/site.md, "serve"): the address it listens on, the
host names it answers to (a foreign page whose name is made to lead to this machine must not
read the preview: DNS rebinding), and what is wrong with a request (:func:`refusal`).
"""

from __future__ import annotations

import contextlib
import ipaddress
import re
import socket
from collections.abc import Sequence
from dataclasses import dataclass
from http import HTTPStatus
from urllib.parse import unquote
from urllib.parse import urlsplit

from generator.errors import CONTROL_CHARACTERS
from generator.errors import shown as shown_name

LOOPBACK_NAMES = (".localhost",)
"""The names every preview answers to: ``localhost`` and its subdomains, which always
lead to this machine (RFC 6761, 6.3; browsers resolve them so without asking DNS)."""


def listen_address(text: str) -> str:
    """``text`` as an address to listen on (``--host``).

    Raises:
        ValueError: it is empty or blank, which the system takes for every interface.
    """
    if not text.strip():
        raise ValueError("an empty address; expected an address of this machine, such as "
                         "127.0.0.1 (0.0.0.0 for every interface)")
    return text


_LABEL = r"[a-z0-9_](?:[a-z0-9_-]*[a-z0-9_])?"
_NAME = re.compile(rf"\.?{_LABEL}(?:\.{_LABEL})*")
"""A host name (``--allow-host``): labels of letters, digits, ``-`` and ``_`` (as
systems name hosts; an internationalised name in its ``xn--`` form), a leading ``.``
for the name and every name under it."""


def host_name(text: str) -> str:
    """``text`` as a host name for the preview to answer to (``--allow-host``): lower
    case, without a final dot. ``.example.org`` stands for ``example.org`` and every
    name under it.

    Raises:
        ValueError: it is no host name (empty; a scheme, a port, a path, a ``*``, a
            character a host name has not).
    """
    name = text.strip().lower()
    name = name[:-1] if name.endswith(".") and len(name) > 1 else name
    if _NAME.fullmatch(name) is None or len(name) > 253:
        raise ValueError(f"{shown_name(text)!r} is no host name; expected a name such as "
                         "preview.example.org, or .example.org for it and every name "
                         "under it")
    return name


@dataclass(frozen=True)
class Hosts:
    """The host names the preview answers to (the ``Host`` header's, its port aside).

    Every IP address is accepted: a page's address that is an IP address leads to the
    same place for the page as for the preview, so no foreign page can be made to share
    the preview's origin by it (DNS rebinding needs a name). Names are accepted as
    :attr:`names` lists them.

    Attributes:
        names: lower-case names without a final dot; one that starts with ``.`` stands
            for the name without it and every name under it.
    """

    names: tuple[str, ...]

    def allows(self, authority: str) -> bool:
        """Whether ``authority`` (a ``Host`` header: ``NAME``, ``NAME:PORT``,
        ``[IPv6]:PORT``) names a host the preview answers to."""
        name = _host_of(authority)
        if name is None:
            return False
        if name.startswith("["):
            return _is_ip(name[1:-1], 6)
        if _is_ip(name, 4):
            return True
        name = name[:-1] if name.endswith(".") else name
        return any(name == entry or (entry.startswith(".") and
                                     (name == entry[1:] or name.endswith(entry)))
                   for entry in self.names)

    def adding(self, name: str) -> Hosts:
        """These hosts and ``name`` (as :func:`host_name` gives it), unless they take it
        in already."""
        if name.startswith("."):
            taken = any(entry.startswith(".") and (name == entry or name.endswith(entry))
                        for entry in self.names)
        else:
            taken = self.allows(name)
        return self if taken else Hosts((*self.names, name))

    def describe(self) -> str:
        """The accepted hosts, for a refusal: ``localhost (and the names under it), any
        IP address, ...``."""
        listed = [f"{entry[1:]} (and the names under it)" if entry.startswith(".")
                  else entry for entry in self.names]
        return ", ".join([listed[0], "any IP address", *listed[1:]])


def accepted_hosts(host: str, every: bool, allow: Sequence[str] = ()) -> Hosts:
    """The hosts a preview listening on ``host`` answers to: ``localhost`` and the names
    under it, every IP address, ``host`` when it is a name, and the ``allow`` names; with
    ``every`` (listening on every interface: ``0.0.0.0``, ``::``) also this machine's
    name (``socket.gethostname()``, and its ``.local`` form, which other machines of
    the network know it by).

    Raises:
        ValueError: an ``allow`` entry is no host name (see :func:`host_name`).
    """
    hosts = Hosts(LOOPBACK_NAMES)
    more = [host] if not (_is_ip(host, 4) or _is_ip(host, 6)) else []
    if every:
        machine = socket.gethostname()
        more += [machine, f"{machine}.local"] if "." not in machine else [machine]
    for name in more:
        with contextlib.suppress(ValueError):  # (a machine's name that is none)
            hosts = hosts.adding(host_name(name))
    for name in allow:
        hosts = hosts.adding(host_name(name))
    return hosts


_AUTHORITY = re.compile(r"(\[[0-9A-Fa-f:.]+\]|[A-Za-z0-9._-]+)(?::[0-9]*)?")


def _host_of(authority: str) -> str | None:
    """The host of a ``Host`` header's value, lower case (``[...]`` kept around an IPv6
    address); ``None`` when it is not of the form ``host[:port]``."""
    match = _AUTHORITY.fullmatch(authority.strip())
    return None if match is None else match[1].lower()


def _is_ip(text: str, version: int) -> bool:
    try:
        return ipaddress.ip_address(text).version == version
    except ValueError:
        return False


@dataclass(frozen=True)
class Refusal:
    """A request the filter refuses: the status, the plain text that says why, and the
    host refused (for a 403; shown as :func:`generator.errors.shown` shows a name)."""

    status: HTTPStatus
    text: str
    host: str | None = None


def refusal(target: str, hosts: Sequence[str], accepted: Hosts,
            origins: Sequence[str] = ()) -> Refusal | None:
    """The request filter: what is wrong with a request for ``target`` (the request
    line's target) with the ``Host`` headers ``hosts`` and the ``Origin`` headers
    ``origins``, or ``None`` when it is served.

    - not exactly one ``Host``: 400 (HTTP/1.1 asks for one; a browser always sends it);
    - a ``Host`` (or the host of an absolute ``target``) that is not ``accepted``: 403,
      saying which hosts are accepted and how to add one;
    - an ``Origin`` (the page that asks, where a browser says it) whose host is not
      ``accepted``: 403 (no page of another site opens the events stream);
    - a path (percent-decoded) holding a control character: 400;
    - a path with a part that starts with a dot (``..``, ``.``, the site's marker
      folder, dot files): 404.
    """
    if len(hosts) != 1:
        return Refusal(HTTPStatus.BAD_REQUEST,
                       f"{'More than one' if hosts else 'No'} Host header; expected one.")
    try:
        parts = urlsplit(target)
    except ValueError:
        return Refusal(HTTPStatus.BAD_REQUEST, "The request's target is no URL.")
    for host in [hosts[0], *([parts.netloc] if parts.netloc else [])]:
        if not accepted.allows(host):
            name = shown_name(_host_of(host) or host.strip())
            return Refusal(HTTPStatus.FORBIDDEN,
                           f'This preview does not answer to the host "{name}" (a page '
                           "of another site could read it through such a name: DNS "
                           f"rebinding).\nIt answers to {accepted.describe()}.\nTo make "
                           f"it answer to this name too: serve --allow-host {name}", name)
    for origin in origins:
        try:
            page = urlsplit(origin.strip()).netloc
        except ValueError:
            page = ""
        if not (page and accepted.allows(page)):
            return Refusal(HTTPStatus.FORBIDDEN, "This preview answers no page of another "
                           f'site (the request\'s Origin is "{shown_name(origin.strip())}").')
    path = unquote(parts.path)
    if CONTROL_CHARACTERS.search(path):
        return Refusal(HTTPStatus.BAD_REQUEST, "The path holds a control character.")
    if any(part.startswith(".") for part in path.split("/")):
        return Refusal(HTTPStatus.NOT_FOUND, "Not found.")
    return None


