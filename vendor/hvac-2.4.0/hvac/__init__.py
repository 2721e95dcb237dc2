from hvac.v1 import Client

__all__ = ("Client",)
