#!/usr/bin/env python
"""Constants related to the Identity secrets engine."""

ALLOWED_GROUP_TYPES = [
    "internal",
    "external",
]
DEFAULT_MOUNT_POINT = "identity"
