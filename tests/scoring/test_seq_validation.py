"""Spec §3, §5, §12: every rejection rule of the sequential round, with its message."""

import pytest

from scoring.errors import ConfigError, ValidationError
from scoring.sequential import parse_config, read_master, read_release

BASE = {"n_releases": 2, "m": 2, "qi": {"Age": "num", "Zip": "num"}, "sa": "Disease"}
MASTER = b"""pid,Age,Zip,Disease,lsf,lsb
Bob,21,12000,dyspepsia,1,2
Alice,22,14000,bronchitis,1,1
Andy,24,18000,dyspepsia,1,1
David,23,25000,gastritis,1,2
Emily,21,12000,dyspepsia,2,2
"""
R1 = """gid,pid,Age,Zip,Disease
1,Bob,"[21,22]","[12000,14000]",dyspepsia
1,Alice,"[21,22]","[12000,14000]",bronchitis
2,Andy,"[23,24]","[18000,25000]",dyspepsia
2,David,"[23,24]","[18000,25000]",gastritis
"""
R2 = """gid,pid,Age,Zip,Disease
1,Bob,"[21,22]","[12000,14000]",dyspepsia
1,,"[21,22]","[12000,14000]",bronchitis
2,Emily,"[21,23]","[12000,25000]",dyspepsia
2,David,"[21,23]","[12000,25000]",gastritis
"""


def master(**options):
    config = parse_config({**BASE, "require_m_eligible": False, **options})
    return read_master(MASTER, config)


def rejected(text, *, release=1, options=None, previous=None):
    m = master(**(options or {}))
    with pytest.raises(ValidationError) as error:
        read_release(text.encode(), release=release, master=m, previous=previous)
    return str(error.value)


def test_valid_releases_read():
    m = master()
    first = read_release(R1.encode(), release=1, master=m)
    second = read_release(R2.encode(), release=2, master=m, previous=first)
    assert second.counterfeits == 1 and list(second.groups.index) == [1, 2]


# -- configuration (§12)
@pytest.mark.parametrize(
    ("change", "message"),
    [
        ({"m": 1}, "configuration key 'm' must be an integer ≥ 2, got 1"),
        ({"m": 2.5}, "configuration key 'm' must be an integer ≥ 2, got 2.5"),
        ({"n_releases": 0}, "configuration key 'n_releases' must be an integer ≥ 1, got 0"),
        (
            {"qi": {"Age": "number"}},
            "configuration key 'qi' must map each QI column to 'num' or 'cat'; got 'number' "
            "for 'Age'",
        ),
        ({"mode": "live"}, "configuration key 'mode' must be one of 'online', 'batch', got 'live'"),
        (
            {"attack_phase": True},
            "configuration key 'attack_phase': an attack phase needs per-team masters "
            "('per_team' or one uploaded master per team)",
        ),
        (
            {"last_disclosure": "yes"},
            "configuration key 'last_disclosure' must be true or false, got 'yes'",
        ),
        ({"colour": 1}, "unknown configuration key(s): 'colour'"),
    ],
)
def test_configuration_errors_name_the_key(change, message):
    with pytest.raises(ConfigError) as error:
        parse_config({**BASE, **change})
    assert str(error.value) == message


def test_configuration_keys_must_be_master_columns_and_cover_the_lifespans():
    with pytest.raises(ConfigError) as error:
        read_master(MASTER, parse_config({**BASE, "qi": {"Age": "num", "Zipcode": "num"}}))
    assert (
        str(error.value) == "configuration key 'qi': 'Zipcode' is not a column of the master table"
    )
    with pytest.raises(ConfigError) as error:
        read_master(MASTER, parse_config({**BASE, "n_releases": 1, "require_m_eligible": False}))
    assert str(error.value) == (
        "configuration key 'n_releases' (1) must be at least the largest lsb of the master table (2)"
    )
    assert parse_config({**BASE, "attack_phase": True}, per_team_masters=True).attack_phase
    missing = {k: v for k, v in BASE.items() if k != "sa"}
    with pytest.raises(ConfigError, match="configuration key 'sa' is missing"):
        parse_config(missing)


# -- master (§3)
@pytest.mark.parametrize(
    ("body", "message"),
    [
        (
            b"pid,Age,Zip,Disease,lsf\nA,1,2,x,1\n",
            "master table: the header must be pid,Age,Zip,Disease,lsf,lsb; missing column(s) 'lsb'",
        ),
        (
            b"pid,Age,Zip,Disease,lsf,lsb\n,1,2,x,1,1\n",
            "master table: empty pid at row 1 (1 row in total)",
        ),
        (
            b"pid,Age,Zip,Disease,lsf,lsb\nA,1,2,x,1,1\nA,1,2,y,1,2\n",
            "master table: duplicated pid at row 2 ('A') (1 row in total)",
        ),
        (
            b"pid,Age,Zip,Disease,lsf,lsb\nA,old,2,x,1,2\n",
            "master table: column 'Age' must hold "
            "finite numbers; not a finite number at row 1 ('old') (1 row in total)",
        ),
        (
            b"pid,Age,Zip,Disease,lsf,lsb\nA,1,2,x,2,1\n",
            "master table: lsf and lsb must be "
            "integers with 1 ≤ lsf ≤ lsb ≤ 2 (n_releases); not at row 1 ('2,1') (1 row in total)",
        ),
        (
            b"pid,Age,Zip,Disease,lsf,lsb\nA,1,2,x,1,1\nB,1,2,y,1,1\n",
            "master table: T(2) is empty (no person has lsf ≤ 2 ≤ lsb)",
        ),
    ],
)
def test_master_errors(body, message):
    with pytest.raises(ValidationError) as error:
        read_master(body, parse_config({**BASE, "require_m_eligible": False}))
    assert str(error.value) == message


def test_master_eligibility_message_names_value_and_count():
    rows = "".join(f"p{i},{i},1,gastritis,1,2\n" for i in range(5))
    rows += "".join(f"q{i},{i},1,v{i},1,2\n" for i in range(6))
    config = parse_config({**BASE, "m": 3})
    with pytest.raises(ValidationError) as error:
        read_master(("pid,Age,Zip,Disease,lsf,lsb\n" + rows).encode(), config)
    assert str(error.value) == (
        "T(1) is not 3-eligible: 'gastritis' holds 5 of 11 tuples (at most 3 allowed)"
    )


def test_categorical_master_cells_may_not_hold_the_cell_syntax():
    config = parse_config({**BASE, "qi": {"Age": "num", "Zip": "cat"}, "require_m_eligible": False})
    with pytest.raises(ValidationError, match=r"column 'Zip' must hold non-empty text"):
        read_master(b"pid,Age,Zip,Disease,lsf,lsb\nA,1,a|b,x,1,2\n", config)


# -- release rules (§5)
def test_rule1_header():
    assert rejected(R1.replace("gid,pid", "pid,gid")) == (
        "release 1: the header must be gid,pid,Age,Zip,Disease; got pid,gid,Age,Zip,Disease"
    )
    with_tampered = "\n".join(line + ",0" for line in R1.strip().split("\n")).replace(
        ",0", ",tampered", 1
    )
    assert rejected(with_tampered) == ("release 1: column 'tampered' is not allowed in this round")
    with_last = "\n".join(line + ",-" for line in R1.strip().split("\n")).replace(",-", ",last", 1)
    assert rejected(with_last, options={"last_disclosure": True}) == (
        "release 1: column 'last' is not allowed in release 1 (there is no earlier release)"
    )


def test_rule2_gid():
    text = R1.replace("1,Alice", "0,Alice").replace("2,Andy", "x,Andy")
    assert rejected(text) == (
        "release 1, row 2, column 'gid': '0' is not an integer ≥ 1; release 1, row 3, column "
        "'gid': 'x' is not an integer ≥ 1 (2 in all)"
    )


def test_a_gid_is_an_integer_as_written():
    text = R1.replace("1,Alice", "1.0,Alice").replace("2,Andy", "2e0,Andy")
    assert rejected(text) == (
        "release 1, row 2, column 'gid': '1.0' is not an integer ≥ 1; release 1, row 3, column "
        "'gid': '2e0' is not an integer ≥ 1 (2 in all)"
    )


def test_rule3_cells():
    assert rejected(
        R1.replace('"[21,22]","[12000,14000]",dyspepsia', '"[22,21]","[12000,14000]",dyspepsia')
    ) == ("release 1, row 1, column 'Age': '[22,21]' has lo > hi")
    assert rejected(
        R1.replace('"[23,24]","[18000,25000]",dyspepsia', '"(23,24)","[18000,25000]",dyspepsia')
    ) == ("release 1, row 3, column 'Age': cannot read '(23,24)' as [lo,hi], a number or *")


def test_rule3_categorical_value_outside_the_domain():
    config = {"qi": {"Age": "num", "Zip": "cat"}}
    body = MASTER
    m = read_master(body, parse_config({**BASE, **config, "require_m_eligible": False}))
    text = (
        R1.replace('"[12000,14000]",dyspepsia', '"{12000|13000}",dyspepsia')
        .replace('"[12000,14000]",bronchitis', '"{12000|13000}",bronchitis')
        .replace('"[18000,25000]"', '"{18000|25000}"')
    )
    with pytest.raises(ValidationError) as error:
        read_release(text.encode(), release=1, master=m)
    assert str(error.value) == (
        "release 1, row 1, column 'Zip': '{12000|13000}' holds '13000', which is not a value of "
        "that master column; release 1, row 2, column 'Zip': '{12000|13000}' holds '13000', "
        "which is not a value of that master column (2 in all)"
    )
    fixed = text.replace("13000", "14000")
    release = read_release(fixed.encode(), release=1, master=m)
    assert release.groups["Zip.set"].tolist() == ["12000|14000", "18000|25000"]


def test_rule4_persons():
    assert rejected(R1.replace("Andy", "Zoe")) == (
        "release 1, row 3: pid 'Zoe' is not in the master table"
    )
    m = master()
    first = read_release(R1.encode(), release=1, master=m)
    with pytest.raises(ValidationError) as error:
        read_release(R2.replace("1,,", "1,Alice,").encode(), release=2, master=m, previous=first)
    assert str(error.value) == ("release 2, row 2: pid 'Alice' is not in T(2): lifespan [1,1]")
    assert rejected(
        R1.replace(
            'Alice,"[21,22]","[12000,14000]",bronchitis', 'Bob,"[21,22]","[12000,14000]",dyspepsia'
        )
    ) == ("release 1, row 2: pid 'Bob' appears twice (first at row 1)")


def test_rule5_missing_persons_unless_suppression():
    m = master()
    first = read_release(R1.encode(), release=1, master=m)
    without_emily = R2.replace("2,Emily", "2,")
    with pytest.raises(ValidationError) as error:
        read_release(without_emily.encode(), release=2, master=m, previous=first)
    assert str(error.value) == "release 2: persons of T(2) missing: ['Emily'] (1 in all)"
    m = master(allow_suppression=True)
    first = read_release(R1.encode(), release=1, master=m)
    release = read_release(without_emily.encode(), release=2, master=m, previous=first)
    assert release.counterfeits == 2


def test_rule6_true_sensitive_value():
    assert rejected(
        R1.replace('Andy,"[23,24]","[18000,25000]",dyspepsia', 'Andy,"[23,24]","[18000,25000]",flu')
    ) == (
        "release 1, row 3: pid 'Andy' must carry its true Disease 'dyspepsia', got 'flu' "
        "(Def. 2(2))"
    )


def test_rule7_real_row_outside_its_region():
    text = R1.replace('"[23,24]","[18000,25000]"', '"[23,24]","[18000,24000]"')
    assert rejected(text) == (
        "release 1, row 4: pid 'David' has Zip 25000, outside the region '[18000,24000]' of "
        "its group 2 (Def. 2(3))"
    )


def test_rule8_one_region_per_group():
    text = R1.replace('2,David,"[23,24]"', '2,David,"[23,25]"')
    assert rejected(text) == (
        "release 1, row 4: group 2 has 'Age' '[23,25]' here but '[23,24]' at row 3 "
        "(Def. 2(3): one region per group)"
    )


def test_rule9_group_without_a_real_row():
    text = R1 + '3,,"[30,31]","[1,2]",gastritis\n'
    assert rejected(text) == (
        "release 1, row 5: group 3 holds only counterfeit rows (Def. 1: groups partition T(1))"
    )


def test_rule10_counterfeits():
    text = R1 + '2,,"[23,24]","[18000,25000]",cold\n'
    assert rejected(text) == (
        "release 1, row 5: counterfeit 'Disease' 'cold' is not in the domain of sensitive values"
    )
    with_tamper = R1.replace("Disease\n", "Disease,tampered\n", 1)
    with_tamper = (
        "\n".join(
            line + ",0" if i else line for i, line in enumerate(with_tamper.strip().split("\n"))
        )
        + '\n2,,"[23,24]","[18000,25000]",bronchitis,1\n'
    )
    assert rejected(with_tamper, options={"allow_tampering": True}) == (
        "release 1, row 5: a counterfeit row (empty pid) cannot be tampered"
    )
    domain = {"sa_domain": ["bronchitis", "cold", "dyspepsia", "gastritis"]}
    m = master(**domain)
    assert read_release(text.encode(), release=1, master=m).counterfeits == 1


def test_rule11_last_must_be_truthful():
    options = {"last_disclosure": True}
    m = master(**options)
    first = read_release(R1.encode(), release=1, master=m)

    def second(lasts):
        lines = R2.strip().split("\n")
        body = [lines[0] + ",last"] + [
            f"{line},{last}" for line, last in zip(lines[1:], lasts, strict=True)
        ]
        return ("\n".join(body) + "\n").encode()

    assert read_release(second(["1", "1", "-", "-"]), release=2, master=m, previous=first)
    with pytest.raises(ValidationError) as error:
        read_release(second(["2", "2", "-", "-"]), release=2, master=m, previous=first)
    assert str(error.value) == (
        "release 2, row 1: group 1 says last 2, but pid 'Bob' was in group 1 of release 1 "
        "(§8.1 (a)); release 2, row 4: pid 'David' came from group 2 of release 1, which "
        "another group names as last, but its group 2 does not (§8.1 (b)) (2 in all)"
    )
    with pytest.raises(ValidationError) as error:
        read_release(second(["1", "-", "-", "-"]), release=2, master=m, previous=first)
    assert str(error.value) == (
        "release 2, row 2: group 1 has last '-' here but '1' at row 1 (one value per group)"
    )
    with pytest.raises(ValidationError) as error:
        read_release(second(["7", "7", "-", "-"]), release=2, master=m, previous=first)
    assert str(error.value).startswith(
        "release 2, row 1, column 'last': '7' must be a group id of release 1, empty or -"
    )


def test_at_most_ten_offenders_are_listed_with_the_total():
    rows = "".join(f"{i},Zoe{i},1,1,flu\n" for i in range(1, 16))
    message = rejected("gid,pid,Age,Zip,Disease\n" + rows)
    assert message.count("is not in the master table") == 10
    assert message.endswith("(15 in all)")


def test_messages_render_in_japanese():
    m = master()
    with pytest.raises(ValidationError) as error:
        read_release(R1.replace("Andy", "Zoe").encode(), release=1, master=m)
    assert (
        error.value.render("ja") == "公開データ 1 の 3 行目: pid 'Zoe' はマスター表にありません。"
    )


# -- look-alike characters (issue 47, point 6): "60〜" typed by the organizer and "60～" from a
# CP932 file are one value in the domain, the master, a release and a guess file.
WAVE_DASH, FULLWIDTH_TILDE = "\u301c", "\uff5e"


def test_look_alike_sensitive_values_are_one_value_everywhere():
    from scoring.sequential.attack import read_guesses

    typed = f"60{WAVE_DASH}"
    config = parse_config(
        {**BASE, "require_m_eligible": False, "sa_domain": [typed, f"60{FULLWIDTH_TILDE}", "<60"]}
    )
    assert config.sa_domain == (typed, "<60")
    from_cp932 = MASTER.decode().replace("dyspepsia", f"60{FULLWIDTH_TILDE}")
    from_cp932 = from_cp932.replace("bronchitis", "<60").replace("gastritis", "<60")
    m = read_master(from_cp932.encode("cp932"), config)
    assert set(m.sa_values) == {typed, "<60"}
    release = (
        R1.replace("dyspepsia", typed).replace("bronchitis", "<60").replace("gastritis", "<60")
    )
    counterfeit = f'2,,"[23,24]","[18000,25000]",60{FULLWIDTH_TILDE}\n'
    read = read_release((release + counterfeit).encode(), release=1, master=m)
    assert read.counterfeits == 1
    assert set(read.rows["sa"]) == {typed, "<60"}
    guesses = read_guesses(f"pid,guess\nBob,60{FULLWIDTH_TILDE}\n".encode(), master=m)
    assert guesses.tolist() == [typed]
