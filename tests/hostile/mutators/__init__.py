# SPDX-License-Identifier: GPL-2.0-or-later
"""The mutators of the hostile campaign, one module per container format
(pcap, pcapng, ERF inside pcap), one for Wireshark's tools and one for any
container.  Importing the package registers every mutator in MUTATORS."""
from . import erf, generic, pcap, pcapng, tools  # noqa: F401  (they register their mutators)
from .common import MUTATORS, Ctx
from .views import Views

__all__ = ["MUTATORS", "Ctx", "Views"]
