"""The whole hostile-input corpus (``python -m tests.hostile_corpus``) in the suite: every case
handled, through the CLI and the app, so that a change to either cannot break one unnoticed."""

from tests import hostile_corpus


def test_every_hostile_input_gets_the_projects_own_answer(capsys):
    status = hostile_corpus.main()
    report = capsys.readouterr().out
    assert status == 0, report
    assert "FAILED" not in report
