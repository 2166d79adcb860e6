"""The standing in one short line: the answer to a score command in a group, which must
cost the table little (the table message itself shows the full picture)."""

from __future__ import annotations

from typing import Any

from bot.render.common import seat_name
from bot.render.i18n import number, t
from bot.render.model import TableInfo
from engine.params import PARTNERSHIP_PARAMS, TARNEEB_SOLO


def score_line(info: TableInfo, match: Any | None) -> str:
    """ "Team A: 12 · Team B: 30 · target 41", or each solo player's score and the target."""
    language = info.language
    if match is None:
        return t(language, "score_none")
    view = match.view(None)
    if view["team_scores"] is not None:
        a, b = view["team_scores"]
        params = PARTNERSHIP_PARAMS.get(view["variant"])
        line = (
            f"{t(language, 'team_a')}: {number(language, a)} · "
            f"{t(language, 'team_b')}: {number(language, b)}"
        )
        if params is not None:
            goal = number(language, view.get("target") or params.target)
            line += f" · {t(language, 'score_target', target=goal)}"
        return line
    scores = " · ".join(
        f"{seat_name(info, seat)}: {number(language, view['scores'][seat])}" for seat in range(4)
    )
    target = view.get("target") or TARNEEB_SOLO.default_target
    return f"{scores} · {t(language, 'score_target', target=number(language, target))}"
