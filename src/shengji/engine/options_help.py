"""Every option of :class:`~shengji.engine.rules.Rules` documented once: its help.

:data:`OPTIONS` holds, for every option in the order of ``Rules``, an :class:`OptionHelp`: one
line of English help, a Chinese label and line of help, the values it takes (for a choice
option, each choice with its English and Chinese words) and the fine print. Everything that
explains the options to people is made from it, never written again:

- the lobby form's option specs (``doc``, ``choices``): :func:`shengji.server.options.option_specs`;
- the browser client's Chinese words (``OPTIONS_ZH``, ``CHOICES_ZH`` of
  ``server/static/options_zh.js``): :func:`shengji.server.options.options_zh_js`;
- the rules in words (:func:`shengji.game.presets.describe_rules`) take the choices' English;
- the option table of ``docs/options.md``: :func:`shengji.game.options_doc.options_page`;
- ``shengji play --help`` and ``shengji simulate --help`` list the options with their help.

The two files are written by ``python3 scripts/write_options_docs.py`` (``--check`` only
compares); tests fail while either differs from what this table makes
(``tests/test_docs.py``, ``tests/test_server_i18n.py``), and while an option, or a choice,
lacks any of its words here (``tests/test_options_help.py``).

Plain data (no I/O, nothing read at run time: compiled builds have no source to read).

>>> OPTIONS["decks"].help, OPTIONS["decks"].label_zh
('number of decks', '副数')
>>> OPTIONS["tuple_follow"].choices["none"]
('following owes the suit only, no structure', '只须同花色')
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass, field

__all__ = ["OPTIONS", "OptionHelp"]


@dataclass(frozen=True, slots=True)
class OptionHelp:
    """The help of one option. The English texts are Markdown: options' names and values in
    backticks, as rules files write them."""

    help: str
    """What the option does, one short line of English (the lobby form, ``--help``)."""
    label_zh: str
    """The option's name in Chinese (the lobby form's label, the client's error lines)."""
    help_zh: str
    """What the option does, one short line of Chinese."""
    values: str = ""
    """The values allowed, where the type does not say it all (integers, ranks, lists)."""
    unset: str = ""
    """What the option left unset (``None``, its default) means, for an optional one."""
    choices: Mapping[str, tuple[str, str]] = field(default_factory=dict)
    """A choice option's values (or a list option's), in order, each with its English
    words (a phrase of the rules in words) and its Chinese words (the lobby form)."""
    details: str = ""
    """The fine print in English, for ``docs/options.md``: how the rule works in full, its
    interplay with other options, which seed plays it."""


OPTIONS: dict[str, OptionHelp] = {
    # table and deck
    "players": OptionHelp(
        "table size",
        "人数", "一桌的人数",
        values="2–20; even with fixed partnerships"),
    "decks": OptionHelp(
        "number of decks",
        "副数", "用几副牌",
        values="1–8"),
    "partnership": OptionHelp(
        "fixed partners (alternate seats) or Finding Friends",
        "组队", "固定对家（隔座为一队）或找朋友",
        choices={
            "fixed": ("fixed partnerships (alternate seats form two teams)", "固定对家"),
            "fluid": ("fluid partnerships (Finding Friends): the dealer calls friend cards",
                      "找朋友"),
        }),
    "kitty": OptionHelp(
        "kitty size (empty: derived from the deal)",
        "底牌张数", "留空：按发牌自动算",
        values="0 to the pack less one card per player, leaving an even deal",
        unset="derived",
        details=("Unset: the remainder of an even deal, made at least 5 by taking one more "
                 "round of cards (8 for 4 players and 2 decks, 6 for one deck; "
                 "`Rules.kitty_size`).")),
    "big_jokers": OptionHelp(
        "big jokers in the pack (empty: one per deck)",
        "大王张数", "留空：每副一张",
        values="0 to `decks`",
        unset="one per deck",
        details="The Zhao Pengyou table of `finding-friends` takes some out."),
    "small_jokers": OptionHelp(
        "small jokers in the pack (empty: one per deck)",
        "小王张数", "留空：每副一张",
        values="0 to `decks`",
        unset="one per deck",
        details="The Zhao Pengyou table of `finding-friends` takes some out."),
    "remove_low": OptionHelp(
        "take out the lowest cards when the kitty does not make the deal even",
        "去掉小牌", "底牌张数使牌发不均时，去掉最小的牌而不改底牌",
        details=("When the pack less the kitty does not deal evenly, as many of the lowest "
                 "cards as needed are taken out instead (`Rules.removed_count`): every copy of "
                 "2♣, then 2♦, 2♥, 2♠, 3♣ ..., skipping point cards and the round's possible "
                 "trump ranks, and starting above `removed_ranks`; they are public "
                 "(`view.removed`). False: the kitty must make the deal even.")),
    "removed_ranks": OptionHelp(
        "whole low ranks taken out of every deck (levels skip them)",
        "去掉整级小牌", ("每副牌去掉最小的几个点数（如全部的 2，或 2 和 3），人多时好发匀；"
                         "升级跳过去掉的级"),
        values='`[]`, `["2"]`, `["2", "3"]` or `["2", "3", "4"]`',
        details=("So that a large table deals evenly: the lowest ranks, none a point rank, none "
                 "repeated, given in any order (kept sorted). The pack, the kitty and the hand "
                 "size count without them (each deck still holds 100 points); removed cards are "
                 "never dealt or called as friends, and `remove_low` then trims from the lowest "
                 "kept cards. Levels, trump ranks and the match skip them: `start_rank` may be "
                 "removed (the match starts at the lowest rank kept above it, "
                 "`Rules.first_rank`, and wraps and hook and needle go back there); `end_rank`, "
                 "`second_rank` and `mandatory_ranks` must be kept ranks.")),
    # combinations and play
    "tractor_min_width": OptionHelp(
        "smallest tuple in a tractor (1: consecutive singles)",
        "拖拉机最小单位", "几张相同的牌组成拖拉机的一节（1：单张顺子也算）",
        values="1 to max(2, `decks`)",
        details="At 1, sequences of singles (one-deck tractors) are tractors too."),
    "tractor_min_length": OptionHelp(
        "fewest consecutive tuples in a tractor",
        "拖拉机最少节数", "至少几节相连才算拖拉机",
        values="2–12"),
    "tractor_high_trumps": OptionHelp(
        "trump-rank cards and jokers may be part of tractors",
        "主级牌和王可连拖", "级牌和大小王可以组成拖拉机"),
    "red_fives": OptionHelp(
        "red-five variant: 5♥ (and 5♦) above the jokers",
        "红五", "红桃 5（和方块 5）大于大小王",
        values="0 (off), 1 (5♥) or 2 (5♥ and 5♦)"),
    "second_rank": OptionHelp(
        "a second trump rank below the first",
        "第二级牌", "比主级牌小的第二种级牌",
        values="a rank",
        unset="none",
        details="Seed hundred."),
    "rank_suit_order": OptionHelp(
        "off-suit trump-rank cards ordered by suit (highest first)",
        "副级牌花色顺序", "副花色的级牌按花色排大小（先列的大）",
        values="up to 4 suits (`C`, `D`, `H`, `S`), highest first, none repeated",
        unset="equal",
        details="Seed hundred; unset, off-suit trump-rank cards are equal."),
    "tuple_follow": OptionHelp(
        "what a led tuple (pair, triple ...) forces out of a follower",
        "跟对子规则", "首家出对子（或拖拉机、甩牌中的对子）时，跟牌必须拆出什么",
        choices={
            "draw-out": ("a led tuple draws out a held tuple, even from a longer one", "必须拆出"),
            "protect": (("following a tuple, longer tuples are protected; as many cards in "
                         "shorter tuples as possible"),
                        "不拆更大的牌型"),
            "none": ("following owes the suit only, no structure", "只须同花色"),
            "breakdown": (("an unmatched led tuple breaks down: a triple draws a pair, a "
                           "tractor of triples a tractor of pairs, then pairs"),
                          "拆出再逐级降"),
        },
        details=("`draw-out` is seed 2006's rule 1 (\"Otherwise, a player must follow suit with "
                 'any n cards"), `protect` its rule 2: only tuples no longer than the led one '
                 "are forced, as many cards locked in them as possible, and a protected tuple "
                 "played anyway counts for the structure it holds (a 4-tuple as two pairs, a "
                 "triple as a pair of a tractor). `breakdown`: the places of a led n-tuple the "
                 "follower cannot match take the widest tuples held, then the next widest (a "
                 "triple with no triple held draws a pair, then a single; a 4-tuple a triple, "
                 "else pairs); a led tractor with no tractor of its shape draws a tractor of "
                 "the next narrower tuples (triples, then pairs; under `tractor_follow = "
                 '"longest"` the widest first, then the longest), then tuples widest first in '
                 "the places left; the same as `draw-out` with two decks.")),
    "tractor_follow": OptionHelp(
        "what a led tractor forces out of a follower",
        "跟拖拉机规则", "首家出拖拉机时，跟牌必须出什么",
        choices={
            "tractor": ("a led tractor draws out a held tractor, else tuples, else singles",
                        "有拖拉机必出"),
            "tuples": (("a led tractor draws out tuples of its width; a held tractor is not "
                        "forced"),
                       "只须出对子"),
            "tractor-only": ("only a tractor draws out a tractor", "只强制拖拉机"),
            "longest": (("a led tractor draws out a held tractor, else the longest shorter "
                         "tractor"),
                        "出最长的拖拉机"),
        },
        details=("`tuples` is seed 2006's rule; under `tractor-only`, without a tractor no "
                 "structure is forced.")),
    "throws": OptionHelp(
        "throws (甩牌) may be led",
        "甩牌", "可以甩牌"),
    "throw_mixed": OptionHelp(
        "a throw may mix unit shapes",
        "混合甩牌", "甩牌可以混合不同的牌型",
        details="False: seed 2006's second rule."),
    "throw_blocked_by_equal": OptionHelp(
        "an equal unit elsewhere also makes a throw fail",
        "相等也算甩失败", "别家有相等的牌型也使甩牌失败",
        details="Seed 2006's second rule."),
    "throw_check": OptionHelp(
        "whose hands can make a throw fail",
        "甩牌检查谁", "谁的手牌能使甩牌失败",
        choices={
            "all": ("every other hand, partner included, can make a throw fail", "所有人"),
            "opponents": ("only the opponents' hands can make a throw fail", "只看对方"),
            "none": ("nobody's hands are checked: a throw always stands (seed hundred)",
                     "不检查：甩牌总是成功"),
        }),
    "failed_throw": OptionHelp(
        "what a failed throw becomes",
        "甩牌失败后", "甩牌失败时必须出的牌",
        choices={
            "lowest": ("a failed throw plays its lowest beatable unit", "出被毙的最小一手"),
            "smallest": ("a failed throw plays its beatable unit with the fewest cards",
                         "出被毙的张数最少的一手"),
            "largest": ("a failed throw plays its beatable unit with the most cards",
                        "出被毙的张数最多的一手"),
            "lose-round": ("a failed throw loses the round: the opponents score the maximum",
                           "输掉这一局"),
        },
        details=("The rest of the throw goes back to the hand; `smallest` and `largest` take "
                 "the lowest among equals; `lose-round` is seed da_bai_fen's rule.")),
    "throw_penalty": OptionHelp(
        "points given to the opponents for a failed throw",
        "甩牌罚分", "甩牌失败罚给对方的分",
        choices={
            "none": ("no penalty for a failed throw", "不罚"),
            "per-attempt": ("a failed throw gives the opponents `throw_penalty_points` points",
                            "每次"),
            "per-card": (("a failed throw gives the opponents `throw_penalty_points` points per "
                          "card thrown"),
                         "每张牌"),
        }),
    "throw_penalty_points": OptionHelp(
        "points of a throw penalty",
        "罚分数", "每次甩牌失败的罚分",
        values="0–200"),
    "throw_beat": OptionHelp(
        "how a throw is beaten (always by a play of the same structure)",
        "甩牌怎么被毙", "怎样的牌能大过甩牌",
        choices={
            "largest-unit": ("a throw is beaten by the highest top card of the largest unit",
                             "比最大牌型的大小"),
            "every-unit": ("a throw is beaten only if every unit beats its counterpart",
                           "每个牌型都要大"),
            "highest-card": ("among plays beating a throw, the highest card decides", "比最大的牌"),
            "card-by-card": (("multi-card plays are compared card by card: each card must beat "
                              "a distinct card of the winning play"),
                             "逐张比"),
        },
        details=("Only a play of the same structure beats a throw (all trumps, except card by "
                 "card); `largest-unit` is seed 2006's rule (the earlier wins ties), "
                 "`card-by-card` seed hundred's.")),
    "bombs": OptionHelp(
        "bombs: this many identical cards or more (0: none)",
        "炸弹", "几张相同的牌算炸弹（0：没有炸弹）",
        values="0, or 2 to `decks`",
        details=("A follower may play a bomb of as many cards as were led in place of the cards "
                 "the lead asks for, whatever its suit (see `bomb_follow_suit`); a bomb beats "
                 "every play that is not one, and bombs compare by size, then trump over plain "
                 "suits, then rank (the earlier wins ties). Plays of one trick have one size, "
                 "so a bomb answers only a lead of as many cards.")),
    "bomb_follow_suit": OptionHelp(
        "a bomb must be of the led suit unless the player is void in it",
        "炸弹须同花色", "代替跟牌的炸弹必须是首家花色（除非已断门）",
        details=("With `bombs`: a bomb played in place of the asked cards must be of the led "
                 "suit unless the player is void in it (False: any suit).")),
    "rainbow": OptionHelp(
        "rainbow leads: one card of one rank in at least this many suits (0: none)",
        "彩虹", "同点数各花色一张一起出（至少几种花色；0：不用）",
        values="0, or 2–4",
        details=("One card of one rank in each of at least this many effective suits (one "
                 "rank's cards fall in at most four, the trump suit counting as one), led "
                 "together. A follower holding a rainbow of as many cards must answer with one "
                 "(any rank), else plays any cards; the highest rank wins (the earlier among "
                 "equals).")),
    "rainbow_throws": OptionHelp(
        "two or more rainbows may be thrown together",
        "甩彩虹", "可以同时甩两个以上的彩虹；跟牌的人有几个同样张数的彩虹就要出几个",
        details=("With `rainbow` and `throws`: two or more rainbows may be led together as a "
                 "throw (each of at least `rainbow` cards, as a throw of several pairs; the "
                 "cards of a rank are read in layers: one card of every suit held, then one of "
                 "every suit held twice, ...). It is checked as a throw (`throw_check`, "
                 "`throw_blocked_by_equal`): it fails when another checked seat holds a rainbow "
                 "of as many cards as one of them, of a higher rank, and `failed_throw` chooses "
                 "the beatable rainbow played instead (`lowest`: the lowest rank; "
                 "`smallest`/`largest`: the fewest/most cards, the lowest among equals), with "
                 "`throw_penalty`. A follower plays as many cards as were led, among them as "
                 "many disjoint rainbows of the led sizes as the hand holds (the largest size "
                 "first; a larger rainbow answers a smaller one), the rest any cards. Only a "
                 "play of rainbows of exactly the led sizes can win: under `throw_beat` "
                 "`largest-unit` and `highest-card` by the rank of its largest rainbow (with "
                 "`throw_tiebreak`, then the next one's ...), under `every-unit` and "
                 "`card-by-card` when each of its rainbows outranks its counterpart (the same "
                 "size, the highest first); the earlier play wins ties. Bombs beat them as any "
                 "play.")),
    "throw_tiebreak": OptionHelp(
        "throws tying on their largest unit are compared on the next one",
        "甩牌比次大牌型", "毙甩牌时最大牌型相同，再比次大的牌型",
        details=('With `throw_beat = "largest-unit"`: plays whose largest units tie are '
                 "compared on the next-largest unit, then the next (the earlier play wins only "
                 "a full tie); False: the earlier play wins the tie. Other `throw_beat` rules "
                 "ignore it.")),
    # dealing and bidding
    "trump_choice": OptionHelp(
        "how the trump suit is chosen",
        "定主方式", "发牌时亮主，或不亮主、发完牌由庄家定主",
        choices={
            "bid": ("trump is bid with trump-rank cards during the deal", "亮主"),
            "dealer": ("nobody bids: after the deal the dealer names the trump suit", "庄家定主"),
        },
        details=("`dealer` is seed hundred's rule: the dealer names a suit or no-trump (action "
                 "`0 declare H`).")),
    "expose": OptionHelp(
        "with the dealer naming trump: cards each player may first expose",
        "亮牌张数", "庄家定主时，定主前每人可以亮出几张牌",
        values="0 to the hand size",
        details=('With `trump_choice = "dealer"`: after the deal each player in turn, the '
                 "dealer last, may expose (show face up) up to this many cards before the "
                 "dealer names the trump (seed hundred: 6; action `1 expose 3H 3H`, or `1 "
                 "expose` for none); 0: no exposing.")),
    "first_draw": OptionHelp(
        "who draws the first card of the deal",
        "谁先摸牌", "发牌时谁摸第一张",
        choices={
            "dealer": ("the dealer draws first", "庄家（切牌后）"),
            "next": ("the player after the dealer draws first", "庄家下家"),
            "count": ("the first drawer is counted off by a face-up card (A=1 ... K=13)",
                      "翻牌数人"),
        },
        details=("`dealer`: after a cut (in the first round a random seat); `next` is seed "
                 "da_bai_fen's rule; `count`: counted off from the dealer, jokers turned again "
                 "(seed wikipedia).")),
    "first_dealer": OptionHelp(
        "how the first round's dealer is chosen",
        "第一局庄家", "第一局怎样定庄",
        choices={
            "first-bidder": ("first round: the first player to bid becomes dealer", "先亮主的人"),
            "first-pair": ("first round: the first player to bid a pair becomes dealer",
                           "先亮对的人"),
            "first-joker-pair": (("first round: the first player to show a pair of jokers "
                                  "becomes dealer"),
                                 "先亮对王的人"),
            "random": ("first round: the dealer is chosen at random", "随机"),
        },
        details=("`first-bidder` is seed wikipedia's rule; `first-pair` asks for a pair (or "
                 "more) of trump-rank cards.")),
    "bid_reinforce": OptionHelp(
        "a bidder may reinforce their own bid",
        "加固", "亮主的人可以再亮一张加固"),
    "bid_switch_suit": OptionHelp(
        "a bidder may switch to another suit",
        "改花色", "亮主的人可以改亮别的花色"),
    "bid_equal_override": OptionHelp(
        "an equal bid (2+ cards) of a higher suit overrides",
        "同数按花色反", "张数相同（2 张以上）时花色大的可以反主",
        details="Suits rank ♠ > ♥ > ♣ > ♦."),
    "bid_withdraw": OptionHelp(
        "bids may be taken back",
        "收回亮主", "亮主可以收回"),
    "bid_after_outbid": OptionHelp(
        "an outbid player may bid again with another card",
        "被反后再亮", "被反主的人可以用别的牌再亮",
        details="Another suit, or jokers; False: they may only show more of the card they bid."),
    "bid_reinforce_equal": OptionHelp(
        "an outbid player may reinforce to the standing bid's count",
        "被反后加固", "被花色反主后可以加到同样张数，收回主",
        details=("Reinforce while equivalent: a player whose bid was outbid by a suited bid may "
                 "show more of their card up to the standing bid's count, and takes the bid "
                 "back (at equal count the earlier bidder stands).")),
    "bid_reinforce_after_bury": OptionHelp(
        "after burying, the kitty's holder may reinforce their bid",
        "扣底后加固", "扣完底、首家出牌前，拿底的人可以用手里的牌加固自己的亮主，别人不能亮",
        details=("Before the first lead, the kitty's holder may reinforce their own standing "
                 "bid (more copies of its card, from the hand as it is then: a buried copy "
                 "cannot be shown) or pass; nobody else may bid then (the window has phase "
                 "`overbid`, `Round.reinforcing`). With `kitty_overbid` the others then bid "
                 "against the stronger bid. No effect when the holder's bid is not the one "
                 "standing.")),
    "joker_bids": OptionHelp(
        "whether jokers can be bid for a no-trump round",
        "王亮无主", "大小王能不能亮无主",
        choices={
            "identical": ("two or more identical jokers bid no-trump", "相同的王"),
            "decks": ("a joker bid needs as many identical jokers as there are decks", "按副数"),
            "off": ("jokers cannot be bid", "不能"),
        },
        details=("A single joker is never a bid; big jokers beat small ones, and jokers beat "
                 "suited bids of as many cards.")),
    "fluid_overbid": OptionHelp(
        "Finding Friends overbids allowed",
        "找朋友反主", "找朋友时允许的反主方式",
        choices={
            "own-rank": ("more cards of one's own rank", "自己的级牌"),
            "maker-rank": ("more cards of the trumpmaker's rank", "庄家的级牌"),
            "jokers-rank": ("identical jokers (no trump suit, the rank stays)", "王加级牌"),
            "jokers-only": ("identical jokers (jokers only are trump)", "只用王"),
        },
        details="Seed wikipedia_2006's fluid overbids, its rules (1)-(4)."),
    "fluid_bidders": OptionHelp(
        "who may bid in Finding Friends",
        "找朋友谁可亮主", "找朋友时谁可以亮主",
        choices={
            "all": ("everybody may bid", "所有人"),
            "not-lost": ("only players who did not lose the previous round may bid", "没输的人"),
        },
        details="`not-lost` is seed wikipedia_2006's rule."),
    "no_bid": OptionHelp(
        "what happens when nobody bids during the deal",
        "没人亮主时", "发完牌没人亮主怎么办",
        choices={
            "kitty-rank": (("nobody bid: kitty cards are turned until a trump-rank card names "
                            "the suit, else the highest card's suit"),
                           "翻底找级牌"),
            "kitty-first": ("nobody bid: the first kitty card's suit is trump", "翻底第一张"),
            "redeal": ("nobody bid: the cards are dealt again", "重新发牌"),
        },
        details=("`kitty-rank` (seeds da_bai_fen, wikipedia): the first of equal highest cards; "
                 "`kitty-first`: a turned joker does what `no_bid_joker` says.")),
    "no_bid_joker": OptionHelp(
        "with no_bid = kitty-first: what a turned joker does",
        "翻到王时", "翻底定主翻到王怎么办",
        choices={
            "next": ("a turned joker: turn the next kitty card", "再翻下一张"),
            "no-trump": ("a turned joker: the round has no trump suit", "无主"),
            "redeal": ("a turned joker: the cards are dealt again", "重新发牌"),
        }),
    "redeal_show": OptionHelp(
        "which hands may be shown to force a redeal",
        "亮牌重发", "哪种手牌可以亮出来要求重新发牌",
        choices={
            "off": ("no redeal by showing a hand", "不能"),
            "no-trumps": ("a player without trumps may show the hand to force a redeal",
                          "没有主牌"),
            "no-points": ("a player without point cards may show the hand to force a redeal",
                          "没有分"),
        }),
    "redeal_dealer_partner": OptionHelp(
        "after a shown-hand redeal the dealer's partner deals",
        "重发由对家做庄", "亮牌重发后由庄家的对家做庄"),
    "redeal_first_bidder": OptionHelp(
        "after a shown-hand redeal the first to bid becomes the dealer",
        "重发后抢庄", "亮牌重发后像第一局一样，先亮主的人做庄",
        details=("Seed da_bai_fen: the new deal is bid for as a first round is: whoever "
                 "first bids (a card of their own side's level) takes the kitty and leads, "
                 "their side the declarers; the seat named to deal (the dealer's partner "
                 "with `redeal_dealer_partner`) deals the cards, and leads if nobody bids. "
                 "With fixed partnerships.")),
    "kitty_overbid": OptionHelp(
        "bidding after the kitty (炒地皮)",
        "炒地皮", "扣底后还可以反主，拿底重扣",
        details="A stronger bid takes the kitty and buries again."),
    "kitty_overbid_takes_dealer": OptionHelp(
        "an overbid after the kitty makes the bidder dealer",
        "炒地皮换庄", "炒地皮的人成为庄家"),
    "kitty_overbid_by": OptionHelp(
        "who may bid after the kitty is buried (炒地皮)",
        "谁可炒地皮", "扣底后谁可以反主",
        choices={
            "others": ("after the kitty, any other player may bid to take it", "其他人"),
            "opponents": ("after the kitty, only the other side may bid to take it", "对方"),
        },
        details="`opponents` with fluid partnerships: every other player."),
    "kitty_overbid_limit": OptionHelp(
        "the most times the kitty may be taken (empty: no limit)",
        "炒地皮次数", "底牌最多被炒几次（留空：不限）",
        values="1–100",
        unset="no limit"),
    # kitty
    "kitty_points_allowed": OptionHelp(
        "point cards may be buried",
        "分可扣底", "可以把分牌扣到底牌里"),
    "kitty_multiplier": OptionHelp(
        "the kitty's multiplier when the opponents win the last trick",
        "抠底倍数", "闲家赢最后一轮时底分乘几",
        choices={
            "unit-size": ("the kitty counts 2 × the cards of the last trick's largest unit",
                          "最大单位张数×2"),
            "power": ("the kitty counts 2^(n+1), n the pairs in the last trick's largest unit",
                      "2 的 n+1 次方"),
            "lead-size": ("the kitty counts 2 × the cards led to the last trick", "出牌张数×2"),
            "decks": ("the kitty counts × the number of decks", "×副数"),
            "double": ("the kitty counts double", "×2"),
        },
        details=("`unit-size`: single ×2, pair ×4; `power`: seed wikipedia (×2, ×4, ×8, ×16); "
                 "`lead-size` and `decks`: seed wikipedia_2006; `double`: seed da_bai_fen.")),
    "kitty_revealed": OptionHelp(
        "the kitty is shown after the round",
        "亮底", "一局结束后亮出底牌"),
    # friends (fluid partnerships)
    "friends": OptionHelp(
        "friends called (empty: by table size)",
        "朋友个数", "叫几个朋友（留空：按人数）",
        values="0 to `players` − 2, with fluid partnerships only",
        unset="by table size",
        details=("Unset: one per two players beyond the first four (one for 4-5 players, two "
                 "for 6-7, ...); none with fixed partnerships.")),
    "friend_calls": OptionHelp(
        "how the dealer calls friends",
        "叫朋友方式", "叫「第几张某牌」或「某颜色某点数」",
        choices={
            "ordinal": ("friends are called by precise copy ('the second A♠')", "第几张"),
            "colour-rank": ("friends are called by colour and rank ('black aces')", "颜色加点数"),
        },
        details=("`ordinal` is seed wikipedia_2006's rule; with `colour-rank` the first players "
                 "to play the called cards join.")),
    "friend_trump_calls": OptionHelp(
        "trump cards may be called as friends",
        "可叫主牌", "可以叫主牌做朋友"),
    "friend_caller_counts": OptionHelp(
        "the caller's own play of a called card uses the call up",
        "自己出也算", "庄家自己出叫的牌也用掉这次叫"),
    "friend_call_all_held": OptionHelp(
        "a call the caller's own cards leave to nobody else",
        "叫自己全有的牌", "叫的牌庄家自己全有时：一个人打，或不许叫",
        choices={
            "alone": ("a call only the caller can complete is allowed: the caller plays alone",
                      "一个人打"),
            "refused": ("a call only the caller can complete is refused", "不许叫"),
        },
        details=("The caller holds (or buried) every copy: `alone` warns the caller, who plays "
                 "alone for that call; `refused`: the caller must call a card another player "
                 "can play.")),
    "friend_call_points": OptionHelp(
        "point cards (5, 10, K) may be called",
        "可叫分牌", "可以叫 5、10、K 做朋友",
        details="False: such calls are refused."),
    "friend_call_top": OptionHelp(
        "the highest card of a suit may be called",
        "可叫最大牌", "可以叫一门中最大的牌（A，或 A 是主时的 K）",
        details="An A, or a K when the trump rank is A; False: such calls are refused."),
    "smaller_team_bonus": OptionHelp(
        "a bonus level for a smaller declaring team",
        "人少多升", "庄家方人少时多升一级"),
    # scoring and levels
    "target": OptionHelp(
        "points the opponents need (empty: 40 × decks)",
        "闲家目标分", "闲家得多少分上台（留空：每副 40 分）",
        values="5–10000",
        unset="40 × `decks`"),
    "level_table": OptionHelp(
        "how the opponents' points turn into level changes",
        "升级表", "闲家得分怎样换算成升级",
        choices={
            "standard": (("standard level table (0 → +3, under half the target +2, under the "
                          "target +1, then opponents +1 per half target)"),
                         "标准"),
            "2006": ("level table of seed 2006 (steps of 20 points per deck, at most +3)",
                     "2006 规则"),
            "da-bai-fen": (("Da Bai Fen level table (0 → +2, 5-35 → +1, 40-75 → switch, 80-95 → "
                            "opponents +1, 100+ → +2, for one deck)"),
                           "打百分"),
            "hundred": ("the Hundred's finer level table (steps of 20 points for one deck)",
                        "一百分"),
            "basic": ("basic level table: +1 per defence, the opponents take over at the target",
                      "简单"),
            "custom": ("a custom level table: the rows of `custom_levels`", "自定义"),
        },
        details="The tables are in `engine/scoring.py`; `custom` takes `custom_levels`."),
    "custom_levels": OptionHelp(
        "custom level table: rows of [min points, change]",
        "自定义升级表", "每行：[最低分, 升降级数]",
        values=("up to 32 rows `[lowest points, level change]`: points 0–10000, the first 0, "
                "increasing; change −12 to 12"),
        details=('With `level_table = "custom"` only: a positive change raises the declarers, '
                 "zero or negative switches sides.")),
    "draw_at": OptionHelp(
        "exactly this many points is a draw (empty: none)",
        "平局分", "闲家正好得这些分算平局（留空：没有）",
        values="0–10000",
        unset="no draw"),
    "below_zero": OptionHelp(
        "the opponents' points may fall below zero, for more declarer levels",
        "负分", "闲家得分可以低于零，每低半个目标分庄家多升一级",
        details=("Failed-throw penalties and a kitty taken by the declarers can take the "
                 "opponents' points below zero; each step of the table below zero (half the "
                 "target: −1 to −40 with two decks, then −41 to −80 ...) is one more level for "
                 "the declarers. False: they stop at 0.")),
    "kitty_to_declarers": OptionHelp(
        "declarers winning the last trick take the kitty off the opponents' points",
        "庄家抠底", "庄家赢最后一轮，底分乘倍从闲家分里扣",
        details="The multiplied kitty; False: it does not count."),
    "last_trick_multiplier": OptionHelp(
        "the last trick's points count times its number of cards",
        "末轮分加倍", "最后一轮的分乘以这一轮的牌数",
        details=("Seed hundred's variant: when the opponents win the last trick, its points "
                 "count as many times as the trick has cards (4 players leading a single: "
                 "×4; a pair: ×8); the kitty is multiplied as `kitty_multiplier` says, "
                 "besides. The declarers' points never count, so their last trick changes "
                 "nothing.")),
    "red_five_penalty": OptionHelp(
        "points for a captured red five",
        "红五罚分", "被对方拿到一张红五罚的分",
        values="0–200"),
    # the match
    "start_rank": OptionHelp(
        "the rank levels start at",
        "起始级", "从几打起",
        values="a rank, at most `end_rank`"),
    "end_rank": OptionHelp(
        "passing this rank wins",
        "终点级", "打过这一级就赢",
        values="a rank (not one of `removed_ranks`)"),
    "after_end": OptionHelp(
        "what passing the end rank means",
        "打过终点后", "打过终点级算赢，或从头再打，或打无主",
        choices={
            "win": ("passing the end rank wins the match", "赢"),
            "wrap": ("levels wrap round to the start rank after the end rank", "从头再打"),
            "no-trump": ("after the end rank comes one more level, jokers only as trump", "打无主"),
            "no-trump-wrap": (("after the end rank comes a no-trump level, then levels wrap "
                               "round to the start rank"),
                              "打无主后从头再打"),
        },
        details=("`wrap`: each side's wraps are counted (`Match.wraps`); `no-trump-wrap` is "
                 "endless play.")),
    "leftover_steps": OptionHelp(
        "steps left after a wrap or the no-trump level: lost or carried on",
        "剩余的级", "从头再打或打到无主级时还剩的级：作废，或接着往上升",
        choices={
            "drop": ("steps left after a wrap or the no-trump level are lost", "作废"),
            "carry": ("steps left after a wrap or the no-trump level carry on from there",
                      "接着升"),
        },
        details=("When an advance wraps (`wrap`, `no-trump-wrap`) or reaches the no-trump level "
                 "with steps to spare: under `drop` the advance stops where it wrapped or at the "
                 "no-trump level; `carry` goes on from the start rank after a wrap, and past the "
                 "no-trump level where the side may pass it (`pass_end_freely`, or declaring at "
                 "it); each barrier passed uses one step.")),
    "mandatory_ranks": OptionHelp(
        "ranks that cannot be skipped",
        "必打级", "不能跳过的级",
        values="ranks from `start_rank` to `end_rank`, none repeated"),
    "mandatory_win": OptionHelp(
        "a side passes a mandatory rank only by winning a round declaring at it",
        "必打须坐庄赢", "停在必打级的一方要坐庄赢一局才能过",
        details="False: any later advance goes past."),
    "pass_end_freely": OptionHelp(
        "any advance may go past the end rank",
        "随便过终点", "任何升级都可以打过终点级",
        details="False: only a round won declaring at it goes past."),
    "hook_and_needle": OptionHelp(
        "hook and needle: a trump-rank J in the last trick sends J back to 2",
        "勾和针", "打 J 时闲家用级牌赢最后一轮，庄家回到 2",
        details=("Declarers at J whose opponents win the last trick with a trump-rank card go "
                 "back to 2 (at A, to J).")),
    "dealer_rotation": OptionHelp(
        "who deals the next round",
        "换庄规则", "下一局谁做庄",
        choices={
            "standard": (("declarers win: the next declarer deals; else the player after the "
                          "dealer"),
                         "标准"),
            "winner-next": ("the next dealer is the next player of the side that won", "赢方下家"),
        },
        details="`standard`: with 4 players the dealer's partner deals when the declarers win."),
}
"""The help of every option of ``Rules``, by name, in the order of its fields."""
