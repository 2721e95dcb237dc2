"""Drives a strongroom server with Debian's python3-hvac: policies, the token API and KV v2. Prints one JSON report."""
import json
import os

import hvac

client = hvac.Client(url=os.environ["VAULT_ADDR"], token=os.environ["VAULT_TOKEN"])
report = {"authenticated": client.is_authenticated()}

client.sys.create_or_update_policy(name="py-app", policy='path "secret/data/py/*" { capabilities = ["create", "read", "update"] }')
report["policies"] = client.sys.list_policies()["data"]["policies"]
report["policy"] = client.sys.read_policy(name="py-app")["data"]["rules"]

created = client.auth.token.create(policies=["py-app"], ttl="1h", meta={"who": "hvac"})
app_token = created["auth"]["client_token"]
report["created"] = {key: created["auth"][key] for key in ("policies", "lease_duration", "renewable", "orphan")}

app = hvac.Client(url=os.environ["VAULT_ADDR"], token=app_token)
app.secrets.kv.v2.create_or_update_secret(path="py/db", secret={"password": "from-hvac"})
report["read"] = app.secrets.kv.v2.read_secret_version(path="py/db")["data"]["data"]
report["lookup_self"] = {key: app.auth.token.lookup_self()["data"][key] for key in ("policies", "meta", "path")}
report["renewed"] = app.auth.token.renew_self(increment="30m")["auth"]["lease_duration"]
report["lookup_accessor"] = client.auth.token.lookup_accessor(created["auth"]["accessor"])["data"]["accessor"] == created["auth"]["accessor"]

try:
    app.secrets.kv.v2.create_or_update_secret(path="elsewhere", secret={"x": "y"})
    report["denied"] = False
except hvac.exceptions.Forbidden:
    report["denied"] = True

report["listed"] = client.secrets.kv.v2.list_secrets(path="py")["data"]["keys"]
client.auth.token.revoke(app_token)
report["revoked_works"] = app.is_authenticated()
report["health_version"] = client.sys.read_health_status(method="GET")["version"]
client.sys.delete_policy(name="py-app")
report["policies_after"] = client.sys.list_policies()["data"]["policies"]
print(json.dumps(report))
