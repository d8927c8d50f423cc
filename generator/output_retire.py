"""The replaced site taken apart (:func:`retire`, docs/site.md, "Output folder"): the files
its marker lists removed, its marker last; what somebody else put into it moved into the
new site or set aside as ``<out>.kept-<n>``, never deleted; its folders kept as the next
build's fresh folder (the spare, :func:`take_spare`) where that can be done safely.
"""

from __future__ import annotations

import contextlib
import errno
import os
import shutil
import stat
from pathlib import Path

from generator.errors import shown
from generator.output_files import MARKER
from generator.output_files import entries_below
from generator.output_files import folders_of
from generator.output_files import marker_listing
from generator.output_files import rename_new


def remove_site_folder(folder: Path) -> None:
    """Remove a folder this generator wrote, its marker last."""
    for entry in sorted(folder.iterdir()):
        if entry.name == MARKER:
            continue
        if entry.is_dir() and not entry.is_symlink():
            shutil.rmtree(entry)
        else:
            entry.unlink()
    (folder / MARKER).unlink(missing_ok=True)
    folder.rmdir()


def take_spare(spare: Path | None, fresh: Path) -> bool:
    """Make ``spare`` (folders only, kept by :func:`_keep_spare`) the fresh folder
    ``fresh``: moved there, then claimed (:func:`_claim_folders`: each a real folder of
    the user's own holding folders alone, given the mode the umask gives a new folder).
    ``False`` when there is none, or it is not usable (a file or a link in it, a folder
    of another user's): then it goes back where it was, untouched but for the modes,
    and nothing of it is published. The spare lies in the build cache, which is not
    trusted (docs/site.md, "Incremental builds")."""
    if spare is None:
        return False
    try:
        if not stat.S_ISDIR(os.lstat(spare).st_mode):
            return False
        os.rename(spare, fresh)
    except OSError:
        return False
    try:
        if _claim_folders(fresh):
            return True
    except OSError:
        pass
    try:
        os.rename(fresh, spare)
    except OSError:
        shutil.rmtree(fresh, ignore_errors=True)
    return False


def _umask() -> int:
    """The process's umask, read without changing it where the system says it (Linux's
    ``/proc/self/status``; setting it to read it would change it for other threads
    meanwhile)."""
    try:
        with open("/proc/self/status", encoding="ascii") as f:
            for line in f:
                if line.startswith("Umask:"):
                    return int(line.split()[1], 8)
    except (OSError, ValueError, IndexError):
        pass
    mask = os.umask(0o022)
    os.umask(mask)
    return mask


_DIR = os.O_RDONLY | os.O_DIRECTORY | os.O_NOFOLLOW | os.O_CLOEXEC


def _claim_folders(top: Path) -> bool:
    """Whether ``top`` and every folder below it is a real folder of the user's own
    holding folders alone (no file, no link), giving each the mode a new folder gets
    from the umask on the way. Each folder is opened without following a link, given
    its mode, and only then listed: once it is the user's with that mode nobody else
    adds to it, so what the listing shows is what it holds. Raises OSError."""
    mode = 0o777 & ~_umask()
    uid = os.geteuid()

    def claim(fd: int) -> bool:
        info = os.fstat(fd)
        if not stat.S_ISDIR(info.st_mode) or info.st_uid != uid:
            return False
        if stat.S_IMODE(info.st_mode) != mode:
            os.fchmod(fd, mode)
        with os.scandir(fd) as listing:
            names = []
            for entry in listing:
                if not entry.is_dir(follow_symlinks=False):
                    return False
                names.append(entry.name)
        for name in names:
            sub = os.open(name, _DIR, dir_fd=fd)
            try:
                if not claim(sub):
                    return False
            finally:
                os.close(sub)
        return True

    fd = os.open(top, _DIR)
    try:
        return claim(fd)
    finally:
        os.close(fd)


def folders_only(folder: Path) -> bool:
    """Whether ``folder`` is a real folder holding folders alone, at any depth: no file
    and no link (what :func:`_keep_spare` leaves; nothing of anybody's)."""
    if folder.is_symlink() or not folder.is_dir():
        return False
    for base, dirs, files in os.walk(folder):
        if files or any(os.path.islink(os.path.join(base, d)) for d in dirs):
            return False
    return True


def _keep_spare(old: Path, spare: Path | None) -> bool:
    """Keep the replaced site ``old``, emptied of its files (:func:`retire`), as
    ``spare``, the next build's fresh folder (:func:`take_spare`); ``False`` when that
    cannot be done (no cache, another file system, a spare already there)."""
    if spare is None or os.path.lexists(spare):
        return False
    try:
        spare.parent.mkdir(parents=True, exist_ok=True)
        os.rename(old, spare)
    except OSError:
        return False
    return True


def _sort_out(folder: Path, listed: set[str]) -> tuple[list[str], list[str]]:
    """What the site folder ``folder`` holds, by whose it is (POSIX paths relative to
    it; the marker neither): the regular files its marker lists (``listed``), which
    its build wrote, and the topmost entries it does not list (files, links, folders
    holding no listed file, a listed name that is now a folder), which somebody else
    put there. Links are not followed; a name the marker lists counts only where the
    folder holds it (a listed ``../x`` names nothing)."""
    folders = folders_of(listed)
    own: list[str] = []
    foreign: list[str] = []

    def walk(path: str, prefix: str) -> None:
        with os.scandir(path) as listing:
            entries = sorted(listing, key=lambda e: e.name)
        for entry in entries:
            rel = prefix + entry.name
            if rel == MARKER:
                continue
            if entry.is_dir(follow_symlinks=False):
                if rel in folders:
                    walk(entry.path, rel + "/")
                else:
                    foreign.append(rel)
            elif rel in listed and entry.is_file(follow_symlinks=False):
                own.append(rel)
            else:
                foreign.append(rel)

    walk(os.fspath(folder), "")
    return own, foreign


def _move_into(old: Path, new: Path, rel: str) -> list[str]:
    """Move the entry ``rel`` of the folder ``old`` to the same place in ``new``, making
    its folders there (never through a link); where that place is taken, the entry
    stays, but a folder whose place is a folder has each of its entries moved so.

    Returns:
        The entries of ``old`` that stay (``rel``, or some below it).
    """
    src, dst = old / rel, new / rel
    try:
        here = new
        for part in rel.split("/")[:-1]:
            here = here / part
            try:
                mode = os.lstat(here).st_mode
            except FileNotFoundError:
                os.mkdir(here)
                continue
            if not stat.S_ISDIR(mode):  # a file or a link where a folder belongs
                return [rel]
        if rename_new(src, dst):
            return []
        if not (stat.S_ISDIR(os.lstat(src).st_mode) and stat.S_ISDIR(os.lstat(dst).st_mode)):
            return [rel]
        names = sorted(os.listdir(src))
    except OSError:
        return [rel]
    stay = [left for name in names for left in _move_into(old, new, f"{rel}/{name}")]
    if not stay:
        with contextlib.suppress(OSError):
            os.rmdir(src)
    return stay


AT_MOST = 5
"""The names a message gives at most (then ``…``)."""


def names_shown(found: list[str]) -> str:
    """``found`` as a message names them: at most :data:`AT_MOST`, each shown plainly."""
    return ", ".join(shown(f) for f in found[:AT_MOST]) + (" …" if len(found) > AT_MOST else "")


def _set_aside(folder: Path, out: Path) -> Path:
    """Rename ``folder`` to the first free ``<out>.kept-<n>`` beside the output ``out``
    (never over anything) and return that. Raises OSError."""
    for n in range(1, 1000):
        place = out.parent / f"{out.name}.kept-{n}"
        if rename_new(folder, place):
            return place
    raise OSError(errno.EEXIST, "no free name", str(out.parent / f"{out.name}.kept-1"))


def retire(old: Path, out: Path, new: Path | None, spare: Path | None) -> list[str]:
    """Take the replaced site ``old`` (of the output ``out``) apart without deleting
    anything its build did not write (docs/site.md, "Output folder"): what its marker
    does not list (put into the output folder while the build ran, after the check that
    refuses such a folder) is moved to the same place in the new site ``new``; the
    files its marker lists are removed, then the marker (last, so that an interrupted
    step leaves a folder the next build knows as its own); its folders become the
    ``spare`` (:func:`_keep_spare`) or are removed. Something that cannot join the new
    site (its place taken there; or ``new`` is ``None``: what a killed build left) stays
    in ``old``, which is then renamed to ``<out>.kept-<n>`` (:func:`_set_aside`).

    Returns:
        One warning for the entries moved into the new site, one for a folder set aside.

    Raises:
        OSError: a file or folder cannot be removed or renamed.
    """
    own, foreign = _sort_out(old, marker_listing(old) or set())
    warnings: list[str] = []
    stay = list(foreign)
    if new is not None and foreign:
        stay = [left for rel in foreign for left in _move_into(old, new, rel)]
        moved = [rel for rel in foreign if rel not in stay]
        if moved:
            them = "it" if len(moved) == 1 else "them"
            warnings.append(
                f"{out}: {names_shown(moved)}: put into the output folder while the build ran, "
                "so not written by this generator; kept in the new site, but the next build "
                f"refuses the folder until you move {them} away (files to publish belong in "
                "templates/root/)")
    for rel in own:
        with contextlib.suppress(FileNotFoundError):
            os.unlink(old / rel)
    with contextlib.suppress(FileNotFoundError):
        os.unlink(old / MARKER)
    if not stay and _keep_spare(old, spare):
        return warnings
    for base, _dirs, _files in os.walk(old, topdown=False):
        with contextlib.suppress(OSError):  # (one that holds something stays)
            os.rmdir(base)
    if os.path.lexists(old):
        left = entries_below(old)
        aside = _set_aside(old, out)
        warnings.append(
            f"{aside}: holds {names_shown(left)}, put into the output folder {out} while a build "
            "ran: not written by this generator, so kept here for you to move")
    return warnings


def remove_empty_folders(folder: Path) -> None:
    """Remove the folders below ``folder`` that hold no file (left from a spare folder
    by pages this site no longer has)."""
    for base, _dirs, files in os.walk(folder, topdown=False):
        if base != str(folder) and not files and not os.listdir(base):
            os.rmdir(base)
