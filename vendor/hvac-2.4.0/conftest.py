"""strongroom's pytest configuration for hvac's integration tests (not part of hvac; see PROVENANCE.md).

hvac's harness asks `vault -version` which Vault it is testing, to choose between behaviours that changed across
Vault releases. strongroom follows the API of the Vault release named by STRONGROOM_HVAC_VAULT_VERSION (set by
scripts/hvac-suite.mjs); answering with it here replaces the call to a Vault binary, which is not there.
"""
import os

from tests import utils

utils.get_vault_version_string.cache = os.environ.get("STRONGROOM_HVAC_VAULT_VERSION", "1.21.0")
