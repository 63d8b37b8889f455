"""The log filter (`lobby.logfilter`) on its own: what it rewrites, what it leaves, and a record that
meets it twice (uvicorn's access logger and the root handler both carry it)."""
import logging

from lobby.logfilter import RedactSecrets, redact


def test_secrets_are_rewritten_whatever_their_case_and_plain_lines_are_left_as_they_are():
    assert redact("GET /games/g1/ws?token=abc.DEF-1&after=3") == "GET /games/g1/ws?token=[redacted]&after=3"
    assert redact("refresh_TOKEN=x1 Password=hunter2 ticket=t.t") == \
        "refresh_TOKEN=[redacted] Password=[redacted] ticket=[redacted]"
    assert redact("subprotocols starbase.v1, ticket.AbCdEf012345_-x") == "subprotocols starbase.v1, ticket.[redacted]"
    plain = '127.0.0.1:5 - "POST /games/g1/commands HTTP/1.1" 200'
    assert redact(plain) == plain
    assert redact("a=b") == "a=b" and redact("ticket.short") == "ticket.short"


def test_a_record_filtered_twice_reads_as_once():
    record = logging.LogRecord("uvicorn.access", logging.INFO, __file__, 1, '%s - "%s %s HTTP/%s" %d',
                               ("127.0.0.1:5", "GET", "/games/g1/view?access_token=abc", "1.1", 200), None)
    first, second = RedactSecrets(), RedactSecrets()
    assert first.filter(record) and second.filter(record)
    assert record.getMessage() == '127.0.0.1:5 - "GET /games/g1/view?access_token=[redacted] HTTP/1.1" 200'
