// The engine's reasons (why an action is refused, what a seat may do) in the reader's language.
// The server sends each reason as {key, params, text} (docs/protocol.md, "Reasons"): `text` is the
// English, rendered by the engine from its template for `key` (src/shengji/engine/reasons.py);
// here are the Chinese templates, in the same syntax: {name}, {name:formatter},
// {name:formatter:count} and {name|one|many}. tests/test_reasons.py checks that every key has
// one, using exactly the engine's parameters.
import { cardName, cardText } from "./cards.js";
import { has, lang, t } from "./i18n.js";
import { OPTIONS_ZH } from "./options_zh.js";

const ZH = {
  "follow-count": "要出{n}张牌：首家出了{n}张",
  "not-held": "你没有{cards:cards}",
  "follow-rainbow": "你有彩虹（{cards:cards}）：首家出彩虹，必须用{n}张的彩虹应对",
  "follow-rainbows": "你有{rainbows:rainbows}（{cards:cards}）：首家出了{lead:lead}，能用几个这样大小的彩虹应对就必须出几个，大的优先",
  "follow-short": "你只有{held}张{suit:suit}（{cards:cards}）：要先出完这些牌，再垫别的牌",
  "follow-suit-one": "你有{held}张{suit:suit}：这张牌必须是{suit:suit}（你出了{played:cards}）",
  "follow-suit": "你有{held}张{suit:suit}：{n}张牌都必须是{suit:suit}（你出了{played:cards}）",
  "follow-tractor": "你的{suit:suit}里有{shape:shape}（{cards:cards}）：首家出了{shape:shape}，必须跟出{shape:shape}",
  "follow-tractor-shorter": "你的{suit:suit}里有{shape:shape}（{cards:cards}）：没有{led:shape}时，必须出较短的拖拉机里最长的一个",
  "follow-tractor-narrower": "你的{suit:suit}里有{shape:shape}（{cards:cards}）：没有{led:shape}时，必须出较窄的拖拉机里最宽的一个",
  "follow-protect": "你的{suit:suit}里有{want}张牌能组成与首家同样大小的同张（{cards:cards}）：首家出了{lead:lead}，必须跟出这些牌，更大的同张可以保留（你只出了{played}张）",
  "follow-locked": "你的{suit:suit}里能组成同张的牌有{want}张（{cards:cards}）：按首家的牌型，能出多少同张就要出多少（你只出了{played}张）",
  "follow-tuples": "你的{suit:suit}里有{want}个{width:tuple}（{cards:cards}）：首家出了{lead:lead}，能跟几个{width:tuple}就必须跟几个",
  "must-any-rainbow": "任出{n}张牌：你没有{n}张的彩虹",
  "must-any-rainbows": "任出{n}张牌：你没有{size}张或更多张的彩虹",
  "must-any": "任出{n}张牌：你已经没有{suit:suit}了",
  "must-rainbow": "出彩虹：同一点数、{n}种花色的{n}张牌{bomb:bomb}",
  "must-rainbows": "出{n}张牌，其中要有{rainbows:rainbows}{bomb:bomb}",
  "must-short": "出完你所有的{suit:suit}（{cards:cards}）{rest:others}{bomb:bomb}",
  "must-follow": "出{n}张{suit:suit}{needs:needs}{bomb:bomb}",
  "lead-empty": "首出至少要出一张牌",
  "lead-suits": "首出的牌必须是同一门：{first:card}是{first_suit:suit}，{other:card}却是{other_suit:suit}",
  "lead-no-throws": "这套规则不许甩牌（一次出几组牌）：请出单张、同张或拖拉机",
  "lead-reading": "{cards:cards}不能按{reading:units}来出",
  "lead-mixed": "这套规则不许混合甩牌：甩出的各组牌型必须相同（都是单张，或都是对子……）",
  "lead-empty-hand": "手里没有牌，无法首出",
  "bid-no-jokers": "这套规则不能用王亮主",
  "bid-joker-count": "用王亮主至少要{need}张相同的王",
  "bid-fluid-own-rank": "定主之后只能用你自己的级牌反主",
  "bid-rank": "亮主要亮你的级牌（{rank}）或相同的王",
  "bid-fluid-fixed": "这套规则定主之后不能再改",
  "bid-overbid-own": "反主要亮你自己的级牌（{own}）",
  "bid-overbid-maker": "反主要亮定主者的级牌（{maker}）",
  "bid-overbid-either": "反主要亮你自己的级牌（{own}）或定主者的级牌（{maker}）",
  "bid-empty": "亮主至少要亮一张牌",
  "bid-identical": "亮主只能亮相同的牌（同点数同花色，或同一种王）",
  "bid-dealer-names": "这套规则不亮主：发完牌由庄家定主",
  "bid-copies": "每种牌只有{decks}张",
  "bid-ineligible": "你这局不能亮主（上一局你输了）",
  "bid-switch": "你已经亮过{card:card}：只能加固，不能换",
  "bid-reinforce-off": "这套规则不能加固自己的亮主",
  "bid-reinforce-more": "加固要亮{count}张以上",
  "bid-reinforce-partner": "你不能加固对家的亮主",
  "bid-weak": "亮{count}张压不过{seat:seat}亮的{bid:cards}：要亮更多张（或者用王）",
  "withdraw-off": "这套规则亮主后不能收回",
  "withdraw-not-yours": "只有亮主的人才能收回当前的亮主",
  "withdraw-settled": "主已经定了：扣底之后不能收回亮主",
  "reinforce-not-yours": "扣底之后只有当前亮主的人可以加固",
  "reinforce-card": "扣底之后只能加固你的亮主：多亮几张{card:card}",
  "call-count": "要叫{n}张朋友牌",
  "call-repeat": "每个叫的朋友牌都要不一样",
  "call-card-only": "这套规则叫朋友要指定具体的牌，例如“第2张黑桃A”",
  "call-colour-only": "这套规则叫朋友要指定颜色和点数，例如“第1张黑色A”",
  "call-copies": "{card:card}只有{decks}张",
  "call-trump": "{card:card}是主牌：不能叫主牌",
  "call-colour-copies": "{colour:colour}{rank}只有{n}张",
  "call-points": "{what:callee}是分牌：不能叫分牌（5、10、K）",
  "call-top": "{what:callee}是这门最大的牌：不能叫",
  "call-removed": "{what:callee}不在这副牌里（这个点数的牌都去掉了）：不能叫",
  "call-taken-out": "{call:call}不在这副牌里：为了发牌平均，去掉了{out}张{what:callee}",
  "call-all-held": "所有的{what:callee}都在你{buried:where}",
  "call-some-held": "{total}张{what:callee}里有{mine}张在你{buried:where}：{call:call}不会出在别人手里",
  "call-all-held-refused": "所有的{what:callee}都在你{buried:where}，没有人能凭{call:call}成为你的朋友：请叫一张别人能打出的牌",
  "call-some-held-refused": "{total}张{what:callee}里有{mine}张在你{buried:where}：{call:call}不会出在别人手里，没有人能凭它成为你的朋友：请叫一张别人能打出的牌",
  "throw-block": "{seat:seat}有{cards:cards}（{shape:shape}），{equal:than}{unit:cards}",
  "throw-block-rainbow": "{seat:seat}有{cards:cards}（{n}张彩虹），{equal:than}{unit:cards}",
  "throw-stands": "{cards:cards}甩牌成功",
  "throw-lost": "甩牌失败：甩牌的一方本局判负",
  "throw-failed": "甩牌失败：改出{cards:cards}",
  "throw-penalty": "罚分：对方得{points}分",
  "bury-count": "要扣{size}张牌（你选了{given}张）",
  "bury-points": "这套规则不能扣分牌（5、10、K）",
  "not-your-turn": "还没轮到你",
  "turn-of": "现在轮到{seat:seat}（{phase:phase}阶段）",
  "turn-of-nobody": "现在没有人可以行动（{phase:phase}阶段）",
  "draw-turn": "现在轮到{seat:seat}摸牌",
  "deal-no-pass": "发牌时不能选择不亮",
  "bid-time": "现在可以{verbs:verbs}",
  "expose-needed": "最多可以亮出{most}张牌（也可以不亮）",
  "expose-count": "最多只能亮出{most}张牌（你选了{given}张）",
  "declare-needed": "请选择主牌花色（梅花、方块、红桃、黑桃）或无主",
  "show-needed": "亮出手牌要求重新发牌，或者不亮",
  "bury-needed": "扣{size}张底牌",
  "call-needed": "叫{n}张朋友牌",
  "play-needed": "请出牌",
  "round-over": "本局已经结束",
  "match-over": "比赛已经结束",
  "no-seat": "没有{seat}号座（座位是0到{last}号）",
  "other-seat": "现在不是{seat:seat}行动（这里是{own:seat}的）",
  "do-verbs": "{verbs:verbs}",
  "do-expose": "最多亮出{most}张牌",
  "do-declare": "选择主牌花色",
  "do-reinforce": "加固你的亮主（多亮几张{card:card}）或者不加",
  "do-show": "亮牌或不亮",
  "do-bury": "扣{size}张底牌",
  "do-call": "叫朋友",
  "do-lead": "首出",
  "do-nothing": "现在无事可做",
  "bad-input": "{error}",
  "rules-unknown": "没有{name}这个选项",
  "rules-type": "{option:option}必须是{kind:kind}，而不是{value}",
  "rules-overbid": "“找朋友反主”必须是这几种反主方式的列表：{allowed:quoted}（而不是{value}）",
  "rules-choice": "{option:option}不能是{value}；可选：{allowed:quoted}",
  "rules-entries": "{option:option}有{n}项；最多只能有{most}项",
  "rules-range": "{option:option}必须在{low}到{high}之间{why:bound}，而不是{value}",
  "rules-width": "“拖拉机最小单位”是{value}，但只有{decks}副牌（相同的牌最多{decks}张）；可选：1到{high}",
  "rules-level-rows": "“自定义升级表”有{n}行；最多只能有{most}行",
  "rules-level-points": "“自定义升级表”：分数{value}必须在0到{most}之间",
  "rules-level-step": "“自定义升级表”：升降级数{value}必须在{low}到{high}之间",
  "rules-odd-players": "固定对家要偶数个人，现在是{players}人：单数人数请打找朋友",
  "rules-uneven-deal": "底牌{kitty}张，剩下的{left}张牌不能平均发给{players}个人",
  "rules-no-opponents": "叫{n}个朋友，{players}个人打就没有闲家了",
  "rules-fixed-friends": "只有“找朋友”组队才叫朋友",
  "rules-overbid-repeat": "“找朋友反主”的反主方式不能重复：{overbids:quoted}",
  "rules-bomb-one": "“炸弹”必须是0（不用）或至少2张相同的牌：一张牌不算炸弹",
  "rules-rainbow-one": "“彩虹”必须是0（不用）或至少2种花色：一张牌不算彩虹",
  "rules-expose-dealer": "“亮牌张数”只用于“庄家定主”（庄家定主之前亮牌）",
  "rules-rank-order": "“起始级”（{start}）不能高于“终点级”（{end}）",
  "rules-mandatory-range": "“必打级”必须在“起始级”和“终点级”之间",
  "rules-suit-repeat": "“副级牌花色顺序”不能有重复的花色",
  "rules-rank-repeat": "“必打级”不能有重复的级",
  "rules-custom-table": "“升级表”选“自定义”时要填“自定义升级表”，否则不能填",
  "rules-custom-zero": "“自定义升级表”必须从0分开始",
  "rules-custom-increase": "“自定义升级表”的分数必须一行比一行高",
  "rules-removed-repeat": "“去掉的点数”不能有重复的点数",
  "rules-removed-point": "“去掉的点数”不能去掉{rank}：分牌（5、10、K）从不去掉",
  "rules-removed-lowest": "“去掉的点数”必须是从2起最小的几个点数，中间不能跳过（不去、2、2和3、或2到4），而不是{ranks}",
  "rules-removed-kept": "{option:option}不能是{rank}：“去掉的点数”把这个点数的牌都去掉了",
};

const SUITS = { C: "梅花", D: "方块", H: "红桃", S: "黑桃", T: "主牌" };
const TUPLES = { 1: "单张", 2: "对子", 3: "三张" };
const VERBS = { draw: "摸牌", bid: "亮主", pass: "不亮" };
const KINDS = {
  bool: "“是”或“否”", int: "整数", rank: "点数（2-10、J、Q、K、A）", suit: "花色（C、D、H、S）",
  ranks: "点数的列表", suits: "花色的列表", overbids: "反主方式的列表",
  rows: "行的列表（每行：分数，升降级数）", row: "每行两个整数（分数，升降级数）",
};
const BOUNDS = {
  "per-deck": () => "（每副一张）",
  pack: (cards) => `（全副${cards}张牌减去每人一张）`,
  "red-fives": () => "（0：不用，1：红桃5，2：红桃5和方块5）",
  bombs: () => "（0：不用；相同的牌，每副最多一张）",
  rainbow: () => "（0：不用；同一点数的牌最多分在4种有效花色里）",
  hand: () => "（每人的手牌张数）",
  friends: (players) => `（${players}个人打，要留下闲家）`,
};

function tupleName(width) {
  return TUPLES[width] ?? `${width}张相同的牌`;
}

function shapeName([width, length]) {
  if (length === 1) return tupleName(width);
  if (width === 1) return `${length}张顺子`;
  const link = width === 2 ? "对" : width === 3 ? "三张" : `${width}张`;
  return `${length}连${link}拖拉机`;
}

function cardList(cards) {
  return String(cards).split(" ").filter(Boolean).map(cardText).join(" ");
}

function callee(what) {
  const [first, rank] = String(what).split(" ");
  if (rank === undefined) return cardName(first);
  return (first === "red" ? "红色" : "黑色") + rank;
}

function needPart([kind, ...values]) {
  if (kind === "tractor") return `一个${shapeName(values)}`;
  if (kind === "tuples") return `${values[0]}个${tupleName(values[1])}`;
  if (kind === "led-size") return `${values[0]}张与首家同样大小的同张牌`;
  return `${values[0]}张同张牌`;
}

// Formatters by name (the engine's FORMATTERS), each taking a parameter and the plural flag
// (Chinese has no use for it), and the reader's seat names (`names(seat)`).
const FORMAT = {
  suit: (code) => SUITS[code] ?? String(code),
  tuple: (width) => tupleName(width),
  shape: (shape) => shapeName(shape),
  lead: ([kind, ...rest]) => (kind === "rainbow" ? `${rest[0]}张彩虹`
    : kind === "rainbows" ? `彩虹甩牌（${rest.map((n) => `${n}张`).join("＋")}）`
    : kind === "throw" ? `甩牌（${rest.map(shapeName).join("＋")}）` : shapeName(rest[0])),
  units: (shapes) => shapes.map(shapeName).join("＋"),
  rainbows: (sizes) => `${[].concat(sizes).map((n) => `${n}张`).join("＋")}的彩虹`,
  needs: (parts) => (parts.length ? `，其中要有${parts.map(needPart).join("和")}` : ""),
  others: (rest) => (rest ? `，再加任意${rest}张其他的牌` : ""),
  bomb: (n) => (n ? `，或者出${n}张相同的牌作炸弹` : ""),
  verbs: (verbs) => [].concat(verbs).map((v) => VERBS[v] ?? v).join("或"),
  where: (buried) => (buried ? "手里或底牌里" : "手里"),
  than: (equal) => (equal ? "不小于" : "大于"),
  cards: (cards) => cardList(cards),
  card: (card) => cardText(card),
  call: (call) => {
    const match = /^(\d+)\S*\s+(.+)$/.exec(String(call));
    return match ? `第${match[1]}张${callee(match[2])}` : String(call);
  },
  callee: (what) => callee(what),
  colour: (colour) => (colour === "red" ? "红色" : "黑色"),
  phase: (phase) => (has(`phase_${phase}`) ? t(`phase_${phase}`) : String(phase)),
  seat: (seat, plural, names) => names(seat),
  option: (name) => (OPTIONS_ZH[name] ? `“${OPTIONS_ZH[name][0]}”` : String(name)),
  kind: (kind) => KINDS[kind] ?? String(kind),
  quoted: (values) => [].concat(values).map(String).join("、"),
  bound: ([name, ...values] = []) => (name === undefined ? "" : BOUNDS[name](...values)),
};

const FIELD = /\{(\w+)(?:\|([^|{}]*)\|([^|{}]*)|:(\w+)(?::(\w+|\*))?)?\}/g;

function fill(template, params, names) {
  return template.replace(FIELD, (whole, name, one, many, format, count) => {
    if (!(name in params)) throw new Error(`missing ${name}`);
    const value = params[name];
    if (one !== undefined) return value === 1 ? one : many;
    if (format !== undefined) {
      const plural = count === "*" || (count !== undefined && params[count] !== 1);
      return FORMAT[format](value, plural, names);
    }
    return String(value);
  });
}

const CARD = /\b(?:10|[2-9JQKA])[CDHS]\b|\b[BS]J\b/g;
const SEAT_PARAMS = ["seat", "own"];

/** The engine's English text of `why` with the seats it names as `names` says (not for
 * `no-seat`, whose seat is not at the table) and its cards with suit symbols ("K♣"). */
function english(why, fallback, names) {
  let text = why.text ?? fallback ?? "";
  if (names && why.key !== "no-seat") {
    for (const param of SEAT_PARAMS) {
      const seat = why.params?.[param];
      if (Number.isInteger(seat)) {
        text = text.replace(new RegExp(`\\bseat ${seat}\\b`, "g"), () => names(seat));
      }
    }
  }
  return text.replace(CARD, (card) => cardText(card));
}

/**
 * A reason for the reader: `why` is the server's {key, params, text} (or null), `fallback` the
 * English text sent beside it. In Chinese, the template of `why.key`; otherwise (an unknown
 * key, or English) the English text, its cards with suit symbols. `names(seat)` names a seat
 * (in English the engine's "seat 2" is replaced only when it is given; in Chinese the default
 * is "2 号座").
 */
export function reasonText(why, fallback = "", names = null) {
  if (!why) return fallback ?? "";
  if (lang() !== "zh" || !(why.key in ZH)) return english(why, fallback, names);
  try {
    return fill(ZH[why.key], why.params ?? {}, names ?? ((seat) => t("seat", { n: seat })));
  } catch {
    return english(why, fallback, names);
  }
}
