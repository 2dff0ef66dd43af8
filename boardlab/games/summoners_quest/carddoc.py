"""Generate the card list of ``docs/rules/summoners-quest.md`` from the card file.

    python -m boardlab.games.summoners_quest.carddoc > /tmp/cards.md

The rules document holds the output between the ``<!-- cards:begin -->`` and
``<!-- cards:end -->`` markers; a test checks that it is up to date.
"""

from __future__ import annotations

from .content import Card, card_text, default_cards_path, describe_ability, describe_effects, load_cards


def _row(cells: list[str]) -> str:
    return "| " + " | ".join(c.replace("|", "/") for c in cells) + " |"


def card_table(cards: dict[str, Card]) -> str:
    out: list[str] = []
    groups = [("summon", "Summons (40)"), ("spell", "Spells (20)"), ("equip", "Equipment (20)"), ("trap", "Traps (20)")]
    for typ, title in groups:
        out.append(f"### {title}\n")
        chosen = [c for c in cards.values() if c.type == typ]
        if typ == "summon":
            out.append(_row(["Card", "Folklore", "Cost", "Attack", "Life", "Movement", "Ability"]))
            out.append(_row(["---"] * 7))
            for c in chosen:
                out.append(_row([c.name, c.lore, str(c.cost), str(c.attack), str(c.life), c.move,
                                 describe_ability(c.ability) if c.ability else "-"]))
        elif typ == "spell":
            out.append(_row(["Card", "Cost", "Range", "Target", "Effect"]))
            out.append(_row(["---"] * 5))
            for c in chosen:
                out.append(_row([c.name, str(c.cost), str(c.range), c.target, describe_effects(c.effects)]))
        elif typ == "equip":
            out.append(_row(["Card", "Cost to equip", "Kind", "Effects"]))
            out.append(_row(["---"] * 4))
            for c in chosen:
                out.append(_row([c.name, str(c.cost), c.lasting, card_text(c).split("; ", 1)[1] if "; " in card_text(c) else "-"]))
        else:
            out.append(_row(["Card", "Negate on", "On a summoner", "On a summon"]))
            out.append(_row(["---"] * 4))
            for c in chosen:
                out.append(_row([c.name, f"{c.negate}+", describe_effects(c.effects), describe_effects(c.summon_effects)]))
        out.append("")
    return "\n".join(out)


if __name__ == "__main__":  # pragma: no cover
    print(card_table(load_cards(default_cards_path())), end="")
