"""The paper's small example (Z 表 10–13) as objects, for doctests."""

from __future__ import annotations

from scoring.sequential.config import parse_config
from scoring.sequential.master import Master, read_master
from scoring.sequential.release import Release, read_release

MASTER = b"""pid,Age,Zip,Disease,lsf,lsb
Bob,21,12000,dyspepsia,1,2
Alice,22,14000,bronchitis,1,1
Andy,24,18000,dyspepsia,1,1
David,23,25000,gastritis,1,2
Emily,21,12000,dyspepsia,2,2
"""
RELEASE_1 = b"""gid,pid,Age,Zip,Disease
1,Bob,"[21,22]","[12000,14000]",dyspepsia
1,Alice,"[21,22]","[12000,14000]",bronchitis
2,Andy,"[23,24]","[18000,25000]",dyspepsia
2,David,"[23,24]","[18000,25000]",gastritis
"""
RELEASE_2 = b"""gid,pid,Age,Zip,Disease
1,Bob,"[21,22]","[12000,14000]",dyspepsia
1,,"[21,22]","[12000,14000]",bronchitis
2,Emily,"[21,23]","[12000,25000]",dyspepsia
2,David,"[21,23]","[12000,25000]",gastritis
"""


def headline() -> tuple[Master, list[Release]]:
    """Z 表 12 + 表 13 (W3): Bob's dyspepsia at 2/3 for attacker N."""
    config = parse_config(
        {
            "n_releases": 2,
            "m": 2,
            "qi": {"Age": "num", "Zip": "num"},
            "sa": "Disease",
            "require_m_eligible": False,  # T(2) holds dyspepsia twice in three
        }
    )
    master = read_master(MASTER, config)
    first = read_release(RELEASE_1, release=1, master=master)
    return master, [first, read_release(RELEASE_2, release=2, master=master, previous=first)]
