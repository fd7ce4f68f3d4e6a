"""Finding tables on the LAN: the pure TXT record format and, apart, the zeroconf adapter.

Importing ``lanomino.discovery`` does not import zeroconf; only ``zeroconf_adapter`` does.
"""

from lanomino.discovery.announce import (
    SERVICE_TYPE,
    AnnouncementError,
    TableAnnouncement,
    build_txt,
    instance_name,
    parse_txt,
)

__all__ = [
    "SERVICE_TYPE",
    "AnnouncementError",
    "TableAnnouncement",
    "build_txt",
    "instance_name",
    "parse_txt",
]
