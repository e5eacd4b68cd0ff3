"""House rules in players' words, in English and Chinese: for each rule set's options (defined in
``engine/rules/*/options.py``) a short name, a one-line description and a word for each choice,
so the page never shows an option's name, a raw value or JSON. The engine's own descriptions stay
the reference for developers; these are what a table reads. ``tests/companion/test_house_rules.py``
checks that every option and every choice of every rule set has both languages here.
"""

from __future__ import annotations

from typing import Any

from engine.rules.nanning.options import MAX_CELL
from engine.rules.nanning.patterns import CELLS, DEFAULT_TABLE

#: (English name, Chinese name, English description, Chinese description, {choice: (en, zh)})
Label = tuple[str, str, str, str, dict[Any, tuple[str, str]]]

_YES_NO: dict[Any, tuple[str, str]] = {True: ("Yes", "是"), False: ("No", "否")}

_NINGBO: dict[str, Label] = {
    "require_baida": (
        "Baida must be shown",
        "必须翻百搭",
        "Every win needs the face-up Baida indicator; off: a hand may be played without wilds.",
        "每次和牌都要有翻开的百搭指示牌;关闭时可以不用百搭。",
        {},
    ),
    "wild_fifth_copy": (
        "Wild as a fifth copy",
        "百搭可当第五张",
        "A wild may stand for a tile of which four are already in play (the indicator counts as one).",
        "百搭可以代替已经出现四张的牌(翻开的指示牌算一张)。",
        {},
    ),
    "minimum_tai": ("Fewest tai to win", "起和台数", "A win needs at least this many tai.", "和牌至少要这么多台。", {}),
    "baida_win": (
        "Baida win (1 tai)",
        "百搭和(1 台)",
        "When the 1-tai Baida win counts.",
        "什么时候算百搭和 1 台。",
        {
            "winning_tile": ("The winning tile is a wild", "和张是百搭"),
            "any_substitute": ("Any wild stands in for another tile", "任何百搭代替别的牌"),
            "never": ("Never", "不算"),
        },
    ),
    "hai_da": (
        "Wild used as itself (还搭)",
        "还搭",
        "A wild played as its own tile scores 1 tai once, or 1 tai for each such wild.",
        "百搭当本身用:只算一次 1 台,或每张算 1 台。",
        {"flat": ("1 tai once", "只算 1 台"), "per_tile": ("1 tai per wild", "每张 1 台")},
    ),
    "win_on_discarded_wild": (
        "Win on a discarded wild",
        "可和打出的百搭",
        "A wild someone discards may complete a win.",
        "别人打出的百搭可以拿来和牌。",
        {},
    ),
    "wild_pair_on_discard": (
        "Pair with a wild on a discard (抛搭)",
        "抛搭可点和",
        "A discard may complete a pair with a wild; off: such a hand wins only by self-draw.",
        "别人打出的牌可以和百搭凑成对子和牌;关闭时只能自摸。",
        {},
    ),
    "waits_need_single_tile": (
        "Wait tai only for a single wait",
        "单吊/边/嵌须独听",
        "Edge, closed and single waits score only when just that one tile could win.",
        "边张、嵌张、单吊只有在只听这一张时才算台。",
        {},
    ),
    "kong_win": (
        "Win on a kong replacement",
        "杠上开花",
        "What a win on a kong's replacement tile scores.",
        "杠上开花怎么算。",
        {
            "both": ("1 tai and double", "1 台并翻倍"),
            "tai_only": ("1 tai only", "只算 1 台"),
            "multiplier_only": ("Double only", "只翻倍"),
        },
    ),
    "last_discard_counts": (
        "Last tile also on a discard",
        "海底炮也算",
        "The last-tile tai also counts for a win on the last discard.",
        "和最后一张打出的牌也算海底的台。",
        {},
    ),
    "earthly_hand": (
        "Earthly hand",
        "地和",
        "Which early win of a non-dealer is an earthly hand.",
        "闲家哪种开局即和算地和。",
        {
            "first_discard": ("On the dealer's first discard", "和庄家第一张打出的牌"),
            "first_draw": ("On one's own first draw", "自己第一次摸牌自摸"),
            "either": ("Either", "两种都算"),
        },
    ),
    "all_honours_tai": (
        "All honours (tai)",
        "字一色台数",
        "Tai for a hand of only winds and dragons.",
        "全是风牌和箭牌的台数。",
        {},
    ),
    "seat_flower_tai": (
        "Own seat's flower (tai)",
        "本位花台数",
        "Tai for each flower of the winner's seat (0: none).",
        "和牌者本位花每张的台数(0 为不算)。",
        {},
    ),
    "other_flower_tai": (
        "Other flowers (tai)",
        "非本位花台数",
        "Tai for each flower not of the winner's seat (0: none).",
        "非本位花每张的台数(0 为不算)。",
        {},
    ),
    "flower_set_tai": (
        "Set of four flowers (tai)",
        "一套花台数",
        "Tai for each full set of four flowers (0: none).",
        "集齐一套四张花的台数(0 为不算)。",
        {},
    ),
    "claimed_chows": (
        "Chow from a discard",
        "可以吃牌",
        "A player may claim a discard to make a chow.",
        "可以吃上家打出的牌。",
        {},
    ),
    "contract_counts_chows": (
        "Chows count for the three-meld contract",
        "包三口算吃",
        "Claimed chows count toward the three melds from one player that make them pay.",
        "吃的牌也计入对同一人的三口(包牌)。",
        {},
    ),
    "contract_pays": (
        "Contract payment",
        "包牌怎么付",
        "What the player under contract pays.",
        "被包的人付多少。",
        {
            "all_shares": ("Everyone's share ×5", "所有人的份 ×5"),
            "one_share": ("One share ×5", "一份 ×5"),
        },
    ),
    "multiple_winners": (
        "Several winners on one discard",
        "一炮多响",
        "Who is paid when several players win on one discard.",
        "一张牌多人和时谁得分。",
        {
            "closest": ("Only the next in turn after the discarder", "只算点炮者下家方向最近的一位"),
            "all": ("Every winner", "每位都算"),
        },
    ),
}

_NANNING: dict[str, Label] = {
    "minimum": (
        "Fewest points to win",
        "起和分",
        "A win must collect at least this much before fishing and sealing (0: no minimum).",
        "和牌在钓鱼和封胡之前至少要收这么多分(0 为不限)。",
        {},
    ),
    "combine": (
        "Several payout rows",
        "多项牌型怎么算",
        "When several rows of the payout table apply.",
        "同时符合几项牌型时怎么算。",
        {"highest": ("Pay the best one only", "只算最高的一项"), "add": ("Add them all", "全部相加")},
    ),
    "values": (
        "Payout table",
        "赔付表",
        "What each row of the guide's payout table pays; change a cell to change what that win pays.",
        "规则书赔付表每一项的分数;改一格就改这种和法的分数。",
        {},
    ),
    "allow_chow": (
        "Chow from a discard",
        "可以吃牌",
        "A player may claim a discard to make a chow.",
        "可以吃上家打出的牌。",
        {},
    ),
    "seal_claims": (
        "Claims that seal (封胡)",
        "封胡笔数",
        "How many pungs or kongs one player must take from the same player to seal them.",
        "一个人从同一人那里碰杠几次就封胡。",
        {0: ("No sealing", "不封胡"), 3: ("3 claims", "三笔"), 4: ("4 claims", "四笔")},
    ),
    "sealed_self_draw": (
        "Sealed player on a self-draw",
        "封胡自摸怎么付",
        "What the sealed player pays when the sealing player wins by self-draw.",
        "封胡者自摸时被封的人付多少。",
        {
            "shares": ("Everyone's share, each with its fish", "每人的份(各按自己的鱼)"),
            "own": ("Three times their own share", "自己那份的三倍"),
        },
    ),
    "fish_min_tiles": (
        "Tiles in hand to fish",
        "钓鱼所需手牌",
        "Fishing happens only when the winner holds at least this many tiles outside exposed melds.",
        "和牌者不算明牌至少有这么多张牌才钓鱼。",
        {},
    ),
    "fish_concealed_kongs": (
        "Concealed kongs count for fishing",
        "暗杠算手牌",
        "A concealed kong counts as four tiles in hand for fishing.",
        "钓鱼时暗杠算手里的四张牌。",
        {},
    ),
    "max_fish": (
        "Most fish tiles",
        "最多翻几条鱼",
        "How many tiles at most are flipped as fish.",
        "最多翻几张鱼牌。",
        {},
    ),
    "several_winners": (
        "Several winners on one discard",
        "一炮多响",
        "Who is paid when several players win on one discard.",
        "一张牌多人和时谁得分。",
        {
            "all": ("Every winner, paid by the discarder", "每位都由点炮者付"),
            "nearest": ("Only the next in turn after the discarder", "只算点炮者下家方向最近的一位"),
        },
    ),
    "kong_points": (
        "Kong payment",
        "杠钱",
        "Paid at once for a kong: by each other player for a concealed one, by the discarder otherwise.",
        "开杠马上收:暗杠其他三家各付,明杠和加杠由放杠的人付。",
        {},
    ),
}

_YUXI: dict[str, Label] = {
    "base_points": ("Base points", "底分", "Every payout is multiplied from this.", "所有赔付都按这个底分乘。", {}),
    "combine": (
        "Several payout rows",
        "多项牌型怎么算",
        "When several rows of the payout table apply.",
        "同时符合几项牌型时怎么算。",
        {"multiply": ("Multiply them", "相乘"), "largest": ("Count the largest only", "只算最大的一项")},
    ),
    "basic_discard_lifted_by": (
        "What allows a win on a discard",
        "什么牌型可以点和",
        "A basic win cannot be won on a discard; which patterns lift that.",
        "平和不能点和;哪些牌型可以。",
        {
            "any_pattern": ("Any pattern", "任何牌型"),
            "hand_pattern": ("Only patterns of the tiles", "只看牌面的牌型"),
        },
    ),
    "blessings_with_triplets": (
        "Four Great Blessings also all triplets",
        "大四喜另算碰碰和",
        "Four Great Blessings also scores All Triplets.",
        "大四喜同时再算碰碰和。",
        {},
    ),
    "earthly_self_draw": (
        "Earthly win on own first draw",
        "闲家首摸自摸算地和",
        "A non-dealer's self-draw on their first draw is also an earthly win.",
        "闲家第一次摸牌就自摸也算地和。",
        {},
    ),
    "multi_win_dealer": (
        "Next dealer after several winners",
        "一炮多响后谁坐庄",
        "Who deals next when several players win on one discard and the dealer is not one of them.",
        "一炮多响且庄家没和时,下局谁坐庄。",
        {
            "nearest_after_discarder": ("The winner next in turn after the discarder", "点炮者之后最近的和牌者"),
            "nearest_after_dealer": ("The winner next in turn after East", "东家之后最近的和牌者"),
        },
    ),
    "multiple_winners": (
        "Several winners on one discard",
        "一炮多响",
        "Who is paid when several players win on one discard.",
        "一张牌多人和时谁得分。",
        {
            "all_score": ("Every winner, paid by the discarder", "每位都由点炮者付"),
            "nearest_only": ("Only the next in turn after the discarder", "只算点炮者下家方向最近的一位"),
        },
    ),
}

_HEFEI: dict[str, Label] = {
    "win_points": ("15 points for winning", "和牌加 15 分", "A win adds 15 points.", "和牌本身加 15 分。", {}),
    "base_score": ("Base score", "底分", "The points are multiplied by this.", "分数乘以这个底分。", {}),
    "single_wait": (
        "Single wait (卡)",
        "卡",
        "When a wait counts as a single wait.",
        "什么情况算卡。",
        {
            "one_tile": ("Only one tile could win", "只听一种牌"),
            "shape": ("An edge, closed or pair wait", "边张、嵌张或单吊的牌形"),
        },
    ),
    "same_number_tiles": (
        "Tiles for 同",
        "同算哪些牌",
        "Which tiles count for same-number points.",
        "同和十同算哪些牌。",
        {"concealed": ("The tiles in hand", "手里的牌"), "all": ("All tiles, melds too", "所有牌,含副露")},
    ),
    "same_number_counting": (
        "Counting 同",
        "同怎么数",
        "Points for a number held four or more times.",
        "同一个数有四张以上时怎么算分。",
        {
            "beyond_four": ("One per tile beyond the fourth", "第五张起每张 1 分"),
            "from_four": ("The fourth tile already counts", "第四张起就算"),
        },
    ),
    "same_number_ranks": (
        "Numbers counted for 同",
        "同算几个数",
        "Only the best number, or every number held four or more times.",
        "只算最好的一个数,或每个四张以上的数都算。",
        {"best": ("The best number only", "只算最好的"), "all": ("Every such number", "都算")},
    ),
    "dealer_streak_on_loss": (
        "Dealer pays the streak too",
        "庄家输也算连庄",
        "When the dealer pays a non-dealer's win, the streak points are added to what the dealer pays.",
        "闲家和牌庄家付钱时,庄家也要付连庄的分。",
        {},
    ),
    "dealer_streak_on_discard": (
        "Streak points on a discard",
        "点和的连庄分",
        "Points for each hand of the dealer's streak when the win is on a discard.",
        "点和时每连庄一局加几分。",
        {4: ("4 per hand", "每局 4 分"), 2: ("2 per hand", "每局 2 分")},
    ),
    "multiple_winners": (
        "Several winners on one discard",
        "一炮多响",
        "Who is paid when several players win on one discard.",
        "一张牌多人和时谁得分。",
        {
            "nearest": ("Only the next in turn after the discarder", "只算点炮者下家方向最近的一位"),
            "all": ("Every winner, paid in full", "每位都全额得分"),
        },
    ),
    "kong_replacement_doubles": (
        "Kong replacement win doubles",
        "杠上开花翻倍",
        "A win on a kong's replacement tile doubles the score.",
        "杠上开花分数翻倍。",
        {},
    ),
    "claimed_chows": (
        "Chow from a discard",
        "可以吃牌",
        "A player may claim a discard to make a chow.",
        "可以吃上家打出的牌。",
        {},
    ),
    "dealer_rotation": (
        "Who deals next",
        "下局谁坐庄",
        "After each hand.",
        "每局之后。",
        {
            "every_hand": ("The next player, every hand", "每局轮到下家"),
            "keep_on_win": ("The dealer keeps it while winning", "庄家和牌就连庄"),
        },
    ),
}

_NINGXIA: dict[str, Label] = {
    "seven_pairs": (
        "Seven pairs",
        "七对",
        "Seven pairs (and dragon seven pairs) may win.",
        "七对(和龙七对)可以和牌。",
        {},
    ),
    "honours": (
        "Winds and dragons",
        "带风",
        "Play with the 28 wind and dragon tiles; off: the 108-tile game.",
        "带 28 张风牌和箭牌;关闭为 108 张的打法。",
        {},
    ),
    "red_dragon_wild": (
        "Red dragons wild (红中赖子)",
        "红中赖子",
        "The four red dragons are wild (needs winds and dragons).",
        "四张红中是赖子(需要带风)。",
        {},
    ),
    "claimed_chows": (
        "Chow from a discard",
        "可以吃牌",
        "A player may claim a discard to make a chow.",
        "可以吃上家打出的牌。",
        {},
    ),
    "dealer_rotation": (
        "Who deals next",
        "下局谁坐庄",
        "After each hand.",
        "每局之后。",
        {
            "winner": ("The winner (a draw: the dealer stays)", "和牌的人(流局庄家连庄)"),
            "next_seat": ("The dealer stays on a win or draw, else the next seat", "庄家和或流局连庄,否则下家坐庄"),
        },
    ),
}

HOUSE_RULES: dict[str, dict[str, Label]] = {
    "ningbo": _NINGBO,
    "nanning": _NANNING,
    "yuxi": _YUXI,
    "hefei": _HEFEI,
    "ningxia": _NINGXIA,
}


#: the rows of Nanning's payout table (``values``) in players' words, in the guide's order
PAYOUT_ROWS: dict[str, tuple[str, str]] = {
    "self_draw": ("Self-draw", "自摸"),
    "discard_win": ("Discard win", "点炮和"),
    "concealed_hand": ("Concealed hand", "门清"),
    "full_flush": ("One suit (full flush)", "清一色"),
    "all_triplets": ("All triplets", "碰碰胡"),
    "seven_pairs": ("Seven pairs", "七小对"),
    "big_seven_pairs": ("Big seven pairs", "大七对"),
    "thirteen_orphans": ("Thirteen orphans", "十三幺"),
    "all_honours": ("All honours", "字一色"),
    "heavenly_win": ("Heavenly win", "天胡"),
    "earthly_win": ("Earthly win", "地胡"),
    "global_win": ("All melded (global win)", "全求人"),
    "last_tile_self_draw": ("Last tile self-draw", "海底捞月"),
    "last_tile_discard": ("Last tile discard", "海底炮"),
}

#: the two cells of a payout row: who pays what
PAYOUT_CELLS: dict[str, tuple[str, str]] = {
    "self_draw": ("Self-draw (each pays)", "自摸(每家付)"),
    "discard": ("Discard (discarder pays)", "点炮(放炮者付)"),
}

#: the options edited as a table of numbers, not one value: rule set -> option -> its table
_TABLES: dict[str, dict[str, dict[str, Any]]] = {}


def _payout_table() -> dict[str, Any]:
    """Nanning's ``values`` editor: each row of the guide's table with its cells (null: the guide
    has no such cell; a number there makes the row pay on that win type), the cells' words and the
    range of a cell."""
    return {
        "rows": [
            {"name": row, "label": en, "label_zh": zh, "guide": {c: DEFAULT_TABLE.get(row, {}).get(c) for c in CELLS}}
            for row, (en, zh) in PAYOUT_ROWS.items()
        ],
        "cells": [{"name": c, "label": PAYOUT_CELLS[c][0], "label_zh": PAYOUT_CELLS[c][1]} for c in CELLS],
        "minimum": 0,
        "maximum": MAX_CELL,
    }


_TABLES["nanning"] = {"values": _payout_table()}


def _lang_index(lang: str) -> int:
    return 1 if lang == "zh" else 0


def rule_name(variant: str, option: str, lang: str = "en") -> str:
    """A house rule's name in players' words in ``lang`` ("en" or "zh"; its option name when it has none)."""
    words = HOUSE_RULES.get(variant, {}).get(option)
    if not words:
        return option.replace("_", " ")
    return words[1] if lang == "zh" else words[0]


def value_words(variant: str, option: str, value: Any, lang: str = "en") -> str:
    """A house rule's value in words in ``lang``: its choice's words ("Yes", "每局 4 分"), a payout
    table's changed cells ("Seven pairs, Self-draw (each pays) 10"; none: "the guide's table"), else
    the value as it is."""
    k = _lang_index(lang)
    words = HOUSE_RULES.get(variant, {}).get(option)
    choices = (words[4] if words else {}) or (_YES_NO if isinstance(value, bool) else {})
    if not isinstance(value, dict | list) and value in choices:
        return choices[value][k]
    if option in _TABLES.get(variant, {}) and isinstance(value, dict):
        sep = "、" if k else "; "
        cells = [
            f"{PAYOUT_ROWS.get(row, (row, row))[k]}{',' if k else ', '}{PAYOUT_CELLS.get(c, (c, c))[k]} {n}"
            for row, row_cells in value.items()
            if isinstance(row_cells, dict)
            for c, n in row_cells.items()
        ]
        return sep.join(cells) or ("规则书的表" if k else "the guide's table")
    return str(value)


def _choice_words(option: dict[str, Any], words: dict[Any, tuple[str, str]]) -> list[dict[str, Any]]:
    """Each choice of an option (a yes/no option's two values) with its words in both languages."""
    values = option.get("choices") or ([True, False] if isinstance(option.get("default"), bool) else [])
    table = words or (_YES_NO if isinstance(option.get("default"), bool) else {})
    return [{"value": v, "label": table[v][0], "label_zh": table[v][1]} for v in values if v in table]


def labelled(variant: dict[str, Any]) -> dict[str, Any]:
    """A rule set's description (``Variant.describe()``) with each option's words for players:
    ``label``, ``label_zh``, ``help``, ``help_zh`` and ``choice_labels`` ([{value, label, label_zh}]);
    an option edited as a table of numbers also ``table`` (:func:`_payout_table`)."""
    table = HOUSE_RULES.get(variant["name"], {})
    tables = _TABLES.get(variant["name"], {})
    options = []
    for option in variant["options"]:
        words = table.get(option["name"])
        if words is None:
            options.append(option)
            continue
        en, zh, help_en, help_zh, choices = words
        extra = {"label": en, "label_zh": zh, "help": help_en, "help_zh": help_zh}
        grid = {"table": tables[option["name"]]} if option["name"] in tables else {}
        options.append(option | extra | {"choice_labels": _choice_words(option, choices)} | grid)
    return variant | {"options": options}
