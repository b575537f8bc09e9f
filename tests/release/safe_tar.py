"""Extract a release archive safely on any Python 3.11 (Debian 12 has 3.11.2, before
tarfile's `filter=` arrived in 3.11.4): every member is vetted first, and the archive is
refused whole if one member would land outside the target folder. Refused: absolute names,
`..` components, symbolic or hard links whose target leaves the folder, device files and FIFOs.
"""
import os
import tarfile


class UnsafeMember(Exception):
    pass


def _inside(root, path):
    root = os.path.realpath(root)
    return os.path.commonpath([root, os.path.realpath(path)]) == root


def check_member(member, dest):
    name = member.name
    if os.path.isabs(name) or name.startswith(("/", "\\")):
        raise UnsafeMember("absolute path: %s" % name)
    if ".." in name.replace("\\", "/").split("/"):
        raise UnsafeMember("'..' in path: %s" % name)
    target = os.path.join(dest, name)
    if not _inside(dest, target):
        raise UnsafeMember("leaves the target folder: %s" % name)
    if member.ischr() or member.isblk() or member.isfifo() or member.isdev():
        raise UnsafeMember("device or FIFO: %s" % name)
    if member.issym():
        link = os.path.join(os.path.dirname(target), member.linkname)
        if os.path.isabs(member.linkname) or not _inside(dest, link):
            raise UnsafeMember("symlink leaves the target folder: %s -> %s" % (name, member.linkname))
    if member.islnk():
        if os.path.isabs(member.linkname) or not _inside(dest, os.path.join(dest, member.linkname)):
            raise UnsafeMember("hard link leaves the target folder: %s -> %s" % (name, member.linkname))


def extract_all(archive, dest):
    """Extract `archive` (a path or an open TarFile) into `dest`, refusing unsafe members."""
    own = isinstance(archive, (str, os.PathLike))
    t = tarfile.open(archive) if own else archive
    try:
        members = t.getmembers()
        for m in members:
            check_member(m, dest)
        for m in members:
            # Never restore owners or odd modes from the archive: plain files keep rwx bits only.
            m.mode &= 0o755
            m.uid = m.gid = os.getuid()
            m.uname = m.gname = ""
            t.extract(m, dest, set_attrs=not m.issym(), numeric_owner=True)
    finally:
        if own:
            t.close()
