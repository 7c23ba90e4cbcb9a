"""Text encodings of CSV files: a team's upload is UTF-8 or Shift_JIS (CP932), anything
else is refused with a message naming the likely encoding (never read as mojibake); an
organizer's file is converted to UTF-8 when its encoding is recognised for sure."""

import pytest

import scoring
from scoring.encodings import fold_lookalikes, guess_encoding, reads_as_japanese, to_utf8
from scoring.errors import ValidationError

JAPANESE = "氏名,年齢,性別\n山田太郎,30,男\n佐藤花子,25,女\n"
FRENCH = "name,city\nRenée,Montréal\nJosé,Zürich\nAndré,Orléans\n"


def refusal(data: bytes) -> ValidationError:
    with pytest.raises(ValidationError) as info:
        scoring.read_table(data, name="anonymized.csv")
    return info.value


def test_a_latin1_table_is_refused_naming_its_encoding_line_and_offset():
    error = refusal(FRENCH.encode("latin-1"))
    assert error.code == "table.encoding"
    message = str(error)
    assert "not UTF-8 (it looks like Windows-1252 (Latin-1))" in message
    assert "line 2 of the file (byte offset 13)" in message  # the é of Renée
    assert "CSV UTF-8 (Comma delimited)" in message
    japanese = error.render("ja")
    assert "Windows-1252 (Latin-1) のようです" in japanese
    assert "2 行目（バイト位置 13）" in japanese and "「CSV UTF-8（コンマ区切り）」" in japanese


@pytest.mark.parametrize(
    "text", ["name\néa\n", "name,city\nAndréa,Paris\n"], ids=["one word", "a table"]
)
def test_latin1_bytes_that_happen_to_decode_as_cp932_are_not_read_as_mojibake(text):
    data = text.encode("latin-1")
    data.decode("cp932")  # valid CP932: the reader used to return kanji for "éa"
    error = refusal(data)
    assert error.code in ("table.encoding", "table.encoding_unsure")
    assert "(byte offset" in str(error)


@pytest.mark.parametrize(
    ("encoding", "label"),
    [("euc_jp", "EUC-JP"), ("utf-16", "UTF-16"), ("iso2022_jp", "ISO-2022-JP")],
)
def test_other_japanese_encodings_are_named(encoding, label):
    error = refusal(JAPANESE.encode(encoding))
    assert error.code == "table.encoding"
    assert f"it looks like {label}" in str(error)


def test_utf8_with_a_few_bytes_of_another_encoding_is_called_damaged_utf8():
    data = FRENCH.encode() + b"Jos\xe9,Paris\n"
    error = refusal(data)
    assert error.code == "table.encoding_damaged"
    assert f"line 5 of the file (byte offset {len(FRENCH.encode()) + 3})" in str(error)


@pytest.mark.parametrize(
    "text",
    [JAPANESE, "pid,Age\nボブ,21\nAlice,22\nAndy,24\nDavid,23\nGary,41\n"],
    ids=["Japanese table", "one katakana name among ASCII"],
)
def test_cp932_uploads_are_still_read(text):
    table = scoring.read_table(text.encode("cp932"), name="anonymized.csv")
    assert table.values.tolist() == scoring.read_table(text.encode()).values.tolist()


def test_to_utf8_converts_a_cp932_original_and_names_the_source():
    converted, source = to_utf8(JAPANESE.encode("cp932"))
    assert (converted, source) == (JAPANESE.encode("utf-8"), "cp932")


def test_to_utf8_converts_a_latin1_original():
    converted, source = to_utf8(FRENCH.encode("latin-1"))
    assert converted.decode("utf-8") == FRENCH
    assert source in ("cp1252", "latin_1")


@pytest.mark.parametrize("data", [JAPANESE.encode(), b"\xef\xbb\xbf" + JAPANESE.encode()])
def test_to_utf8_keeps_utf8_as_it_is(data):
    assert to_utf8(data) == (data, "utf_8")


def test_to_utf8_refuses_when_the_encoding_is_not_sure():
    data = "name\néa\n".encode("latin-1")
    assert not guess_encoding(data).confident
    with pytest.raises(ValidationError) as info:
        to_utf8(data, name="original.csv")
    assert info.value.code == "table.encoding_unsure"
    assert "original.csv is not UTF-8, and its encoding cannot be told for sure" in str(info.value)


# Latin-1 files that detection read as CP932 (confidently, or by giving up): their CP932
# reading is rare kanji or half-width kana inside a Latin word, never Japanese text (issue 47).
@pytest.mark.parametrize(
    ("text", "shown"),
    [
        ("target,sex,count\nsex,CAÑÓN,4\n", "CAﾑﾓN"),
        ("target,sex,count\nsex,FemalÑ,4\n", "Femalﾑ"),
        ("target,gender,age,count\ngender_age,F,ÂGÉE,1\n", "ﾂGﾉE"),
    ],
)
def test_latin1_that_detection_read_as_cp932_is_refused_naming_latin1_and_the_line(text, shown):
    data = text.encode("latin-1")
    assert data.decode("cp932").count(shown) == 1  # what the reader used to return
    error = refusal(data)
    assert error.code in ("table.encoding", "table.encoding_unsure")
    assert "Latin-1" in str(error) and "line 2 of the file" in str(error)
    assert "Latin-1" in error.render("ja") and "2 行目" in error.render("ja")


@pytest.mark.parametrize(
    "text", ["性別,年齢\n女性,60〜\n", "ｵﾄｺ,ｵﾝﾅ\n1,2\n", "名前\nＡＢＣ\n", "a,b\n－,～\n"]
)
def test_japanese_cp932_is_still_read(text):
    data = text.replace("〜", "～").encode("cp932")
    assert reads_as_japanese(data)
    assert scoring.read_table(data, name="t.csv").shape[0] >= 1


@pytest.mark.parametrize(
    ("jis", "cp932", "byte"),
    [
        ("\u301c", "\uff5e", "8160"),  # WAVE DASH / FULLWIDTH TILDE
        ("\u2212", "\uff0d", "817c"),  # MINUS SIGN / FULLWIDTH HYPHEN-MINUS
        ("\u2014", "\u2015", "815c"),  # EM DASH / HORIZONTAL BAR
        ("\u2016", "\u2225", "8161"),  # DOUBLE VERTICAL LINE / PARALLEL TO
        ("\u00a2", "\uffe0", "8191"),  # CENT SIGN
        ("\u00a3", "\uffe1", "8192"),  # POUND SIGN
        ("\u00ac", "\uffe2", "81ca"),  # NOT SIGN
    ],
)
def test_each_cp932_lookalike_pair_folds_to_one_form(jis, cp932, byte):
    assert bytes.fromhex(byte).decode("cp932") == cp932  # what a CP932 file gives
    if jis != "\u2014":  # Python's Shift_JIS also reads 0x815C as HORIZONTAL BAR
        assert bytes.fromhex(byte).decode("shift_jis") == jis
    assert jis != cp932
    assert fold_lookalikes(f"60{jis}") == fold_lookalikes(f"60{cp932}") == f"60{jis}"
    assert fold_lookalikes("plain ASCII ~-") == "plain ASCII ~-"
