// English and Simplified Chinese strings, and t(): the page's text in the store's language.
import { byId } from "./dom.js";
import { store } from "./store.js";

/** Every string the page shows, by language; {name} marks a placeholder t() fills. */
const STRINGS = {
  en: {
    app_title: "Mahjong table companion", new_table: "New table", table_name: "Table name (optional)",
    rule_set: "Rule set", players_legend: "Players in their seats (play order)", player_n: "Seat {n}",
    deals_first: "deals first", start_points: "Starting points (0 if the rules have none)",
    house_rules: "House rules", create_table: "Create table", recent_tables: "Tables on this device",
    default_is: "default: {v}", watch_link: "Watch link",
    watch_link_help: "Phones can open this link to follow the ledger live (read-only):", copy: "Copy", copied: "Copied",
    act_win: "Win — photograph hand", act_kong: "Kong", act_claim: "Claim (pung)", act_draw: "Drawn hand",
    act_undo: "Undo last", readonly_banner: "Watching: this link follows the table live and cannot change it.",
    balances_chart: "Balances over the evening", ledger: "Ledger", export_csv: "Export CSV", export_json: "Export JSON",
    win_title: "Record a win", correct_title: "Correct hand #{n}", cancel: "Cancel",
    step_photo: "1 · Photograph the winning hand",
    photo_hint: "Lay the hand out face up: concealed tiles in a row, melds apart, indicator tiles in a second row.",
    take_photo: "Take or choose a photo", live_camera: "Live camera", enter_by_hand: "Enter tiles without a photo",
    shoot: "Capture", retake: "Retake photo", step_review: "2 · Check the tiles",
    review_hint: "Tap a tile to fix it. Boxes: green sure, amber check, red doubtful.",
    type_tiles: "Type tiles (e.g. 123m 55p 777z)", add_group: "Add as group", pick_tiles: "Pick tiles",
    step_ask: "3 · How was it won?", who_won: "Who won?", how_won: "Self-draw or whose discard?",
    self_draw: "Self-draw", score: "Score", step_result: "4 · Result", confirm: "Confirm and record",
    another_winner: "Another winner on this discard", not_found: "Table not found", home: "Home", close: "Close",
    round: "{w} round", hand_no: "Hand {n}", dealer: "Dealer", streak: "dealer streak {n}",
    wind_E: "East", wind_S: "South", wind_W: "West", wind_N: "North",
    wind_short_E: "E", wind_short_S: "S", wind_short_W: "W", wind_short_N: "N",
    claims_now: "Claims this hand: {list}",
    uploading: "Uploading photo… {p}%", recognising: "Reading the tiles…", shrinking: "Preparing photo…",
    group: "Group {n}", role_hand: "Hand", role_meld: "Meld (claimed)", role_concealed_kong: "Concealed kong",
    role_baida: "Baida indicator", role_bloom: "Bloom tile", role_fish: "Fish tile", role_ignore: "Ignore",
    not_hand: "Not the hand: {why}", ignore_others: "Ignore all others", this_is: "This is the {role}",
    ask_indicator: "Several groups could be the {role}: tap the one that is.",
    why_indicator: "a face-up tile near the hand, maybe an indicator", why_near_hand: "a face-up tile set apart near the hand",
    why_wall: "tile backs only (the wall)",
    why_discards: "a discard pile (many tiles in a loose grid)", why_smaller_tiles: "smaller tiles than the hand (farther away, another player's)",
    why_far_from_hand: "in the hand's row but far from it", why_lone_tile: "a lone tile far from the hand", why_off_row: "far from the hand's row",
    from_whom: "from", kong_added: "added kong", winning_tile: "winning tile", mark_winning: "This is the winning tile",
    remove_tile: "Remove tile", alternatives: "Top alternatives", all_tiles: "All tiles", fix_tile: "Fix tile",
    add_tile: "+ tile", pick_title: "Add tiles", suit_m: "Characters", suit_p: "Dots", suit_s: "Bamboo",
    suit_z: "Honours", suit_f: "Flowers", done: "Done",
    flag_after_kong: "On a kong replacement", flag_robbed_kong: "Robbing a kong", flag_last_tile: "Last tile",
    flag_first_turn: "First turn", flag_double_kong: "After two kongs in a row", flag_ten_old_men: "Ten Old Men (discards)",
    need_winner: "Choose who won.", need_how: "Choose self-draw or who discarded.",
    need_tiles: "No hand tiles yet: take a photo, or type or pick the tiles.",
    need_winning: "Tap the winning tile and mark it.",
    unread_tile: "Group {n} has a tile the camera could not read (?): tap it and choose the tile.",
    bad_meld: "Group {n} is not a chow, pung or kong; fix its tiles or change its role.",
    meld_from_winner: "Group {n}: a meld cannot come from the winner; choose who it was claimed from.",
    value: "Value", items: "Scoring items", multipliers: "Multipliers", payments: "Payments", wilds: "Wild tiles",
    indicator: "Indicator", wild_kinds: "wild:", fish: "Fish", bloom: "Bloom", eligible: "eligible", not_eligible: "not eligible", stands_for: "stands for",
    matched: "matched {seat}", notes: "Notes", pays: "pays", total: "total", for_payer: "for {seat}",
    recorded: "Recorded.", undone: "Undone: {what}", nothing_to_undo: "Nothing to undo.",
    confirm_undo: "Undo {what}?", yes_undo: "Undo it", confirm_draw: "Record hand {n} as a drawn hand?",
    yes_draw: "Record draw", need_declarer: "Choose who declared the kong.", need_discarder: "Choose whose tile it was.",
    need_claimer: "Choose who claimed.", need_other: "A player cannot claim their own tile.", last_drawer: "Who drew the last tile? (they deal next)",
    need_last_drawer: "Choose who drew the last tile: this rule set gives them the deal.", kong_title: "Record a kong", kong_type: "Kind", kong_exposed: "Exposed (from a discard)",
    kong_concealed: "Concealed", kong_added_t: "Added to a pung", declarer: "Who declared it?", discarder: "Claimed from",
    record: "Record", claim_title: "Record a claim", claimer: "Who claimed?", claim_meld: "Meld",
    ev_win: "{who} won", ev_draw: "Drawn hand", ev_kong: "{who}: {kind}", ev_claim: "{who} claimed a {meld} from {from}",
    ev_self_draw: "self-draw", ev_discard: "on {who}'s discard", ev_refused: "{who}: not paid", corrected: "corrected", correct: "Correct",
    undone_tag: "undone", history: "Full record ({n} events)", hand_ev: "Hand", start: "start", no_events: "No hands yet. Good luck!",
    pung: "pung", kong: "kong", concealed_kong: "concealed kong", added_kong: "added kong",
    err_network: "Cannot reach the server. Check the Wi-Fi; nothing was lost.", err_generic: "Something went wrong: {m}",
    live: "live", you_are_here: "", photo_too_big: "That file is not a photo the browser can read. Try another photo.",
    options_json_bad: "Option {name} needs valid JSON.", option_range: "{name}: a number from {min} to {max}.",
    payout_hint: "Points per cell, 0 to {max}. Empty: the guide's amount (— : the row does not pay on that win).",
    payout_bad: "{cell}: a whole number from {min} to {max}, or empty for the guide's amount.", list_sep: ", ", payout_guide: "the guide's table",
    names_needed: "Every seat needs a player name.",
    no_variants: "No rule sets are installed yet.", open: "Open", watch: "watch",
    hand_axis: "hand", try_again: "Try again", no_tiles_read: "No tiles could be read in this photo.",
    photo_late: "The photo was read after you entered tiles: your tiles are kept. Tap Retake photo to use a photo instead.",
    act_settings: "Table settings", set_names: "Players' names", save_names: "Save names", names_saved: "Names saved.",
    nothing_changed: "Nothing changed.", set_seats: "Swap seats", swap_seats: "Swap their seats",
    swap_hint: "Tap two players: they exchange seats (and the winds they would have had) from the next hand on; the dealer's seat, its streak and the round stay. Hand {n} is being played.",
    swapped: "{a} and {b} swap seats from hand {n}.", save_rules: "Change house rules",
    rules_hint: "New house rules apply from the next hand on; hands already recorded keep the rules they were played under.",
    rules_waiting: "Shown: the rules already changed for the next hand.", rules_saved: "House rules changed from hand {n}.",
    ev_rename: "{was} is now called {name}", ev_swap: "{a} ⇄ {b} swap seats from hand {n}",
    ev_rules: "House rules from hand {n}: {list}", rules_of: "rules of hand {n}",
    meld_check: "Check the melds against the ledger",
    meld_disagrees: "{who}: meld {tiles} is entered from {from}, but the ledger recorded a {meld} from {rec} this hand.",
    meld_not_entered: "{who}: the ledger recorded a {meld} from {rec} this hand, but the hand has no such meld.",
    stale_title: "Another device changed the ledger first, so nothing was recorded here:",
    chg_recorded: "Recorded — hand {n}: {what}", chg_correct: "Corrected — hand {n}: {what}", chg_undo: "Undone — {what}",
    chg_other: "Changed — {what}", chg_more: "… and {n} earlier changes", chg_reload: "The table was reloaded.",
    chg_unknown: "an earlier entry", dismiss: "OK",
    stale_again: "Check the table, then record it again if it still applies.",
    stale_rescored: "Scored again as hand {n}, with the same players: check the result, then confirm.",
    stale_correct_gone: "The hand you were correcting was changed there: open it again from the ledger.",
    winner_tab: "Winner {n}", remove_winner: "Remove {who} as a winner", cmp_title: "Payments: recorded and corrected", cmp_before: "Recorded", cmp_after: "Corrected",
  },
  zh: {
    app_title: "麻将牌桌助手", new_table: "新牌桌", table_name: "牌桌名称(可选)",
    rule_set: "规则", players_legend: "玩家座位(按出牌顺序)", player_n: "座位 {n}",
    deals_first: "首局庄家", start_points: "起始分(规则没有则填 0)",
    house_rules: "本桌规则", create_table: "创建牌桌", recent_tables: "本设备上的牌桌",
    default_is: "默认:{v}", watch_link: "观看链接",
    watch_link_help: "手机打开此链接可实时查看账本(只读):", copy: "复制", copied: "已复制",
    act_win: "和牌 — 拍照", act_kong: "杠", act_claim: "碰", act_draw: "流局",
    act_undo: "撤销上一步", readonly_banner: "观看模式:实时跟随牌桌,不能修改。",
    balances_chart: "本场输赢走势", ledger: "账本", export_csv: "导出 CSV", export_json: "导出 JSON",
    win_title: "记录和牌", correct_title: "更正第 {n} 局", cancel: "取消",
    step_photo: "1 · 拍下和牌的手牌",
    photo_hint: "把牌正面朝上摆好:暗牌一排,副露分开,指示牌放第二排。",
    take_photo: "拍照或选择照片", live_camera: "实时相机", enter_by_hand: "不拍照,手动输入",
    shoot: "拍摄", retake: "重拍", step_review: "2 · 核对牌张",
    review_hint: "点一张牌可以改正。框色:绿=确定,黄=请核对,红=存疑。",
    type_tiles: "输入牌(如 123m 55p 777z)", add_group: "添加为一组", pick_tiles: "选牌",
    step_ask: "3 · 怎么和的?", who_won: "谁和牌?", how_won: "自摸还是谁点炮?",
    self_draw: "自摸", score: "计分", step_result: "4 · 结果", confirm: "确认并记账",
    another_winner: "一炮多响:再加一位和牌者", not_found: "找不到牌桌", home: "首页", close: "关闭",
    round: "{w}风圈", hand_no: "第 {n} 局", dealer: "庄", streak: "连庄 {n}",
    wind_E: "东", wind_S: "南", wind_W: "西", wind_N: "北",
    wind_short_E: "东", wind_short_S: "南", wind_short_W: "西", wind_short_N: "北",
    claims_now: "本局碰杠:{list}",
    uploading: "上传照片… {p}%", recognising: "正在识别牌张…", shrinking: "正在处理照片…",
    group: "第 {n} 组", role_hand: "手牌", role_meld: "副露(吃碰杠)", role_concealed_kong: "暗杠",
    role_baida: "百搭指示牌", role_bloom: "开花牌", role_fish: "鱼牌", role_ignore: "忽略",
    not_hand: "不是手牌:{why}", ignore_others: "忽略其余各组", this_is: "这是{role}",
    ask_indicator: "有几组都可能是{role}:请点真正的那一组。",
    why_indicator: "手牌旁的明牌,可能是指示牌", why_near_hand: "手牌旁单独放的明牌",
    why_wall: "只有牌背(牌墙)",
    why_discards: "弃牌堆(许多牌松散排列)", why_smaller_tiles: "牌比手牌小(离相机更远,是别人的牌)",
    why_far_from_hand: "与手牌同一排,但离得很远", why_lone_tile: "远离手牌的单张牌", why_off_row: "远离手牌那一排",
    from_whom: "来自", kong_added: "加杠", winning_tile: "和张", mark_winning: "设为和张",
    remove_tile: "删除此牌", alternatives: "最可能的牌", all_tiles: "全部牌", fix_tile: "改正牌张",
    add_tile: "+ 牌", pick_title: "添加牌", suit_m: "万子", suit_p: "筒子", suit_s: "条子",
    suit_z: "字牌", suit_f: "花牌", done: "完成",
    flag_after_kong: "杠上开花", flag_robbed_kong: "抢杠", flag_last_tile: "海底", flag_first_turn: "天和/地和",
    flag_double_kong: "连杠开花", flag_ten_old_men: "十老头",
    need_winner: "请选择和牌者。", need_how: "请选择自摸或点炮者。",
    need_tiles: "还没有手牌:请拍照,或输入、选择牌张。",
    need_winning: "请点和张并标记。",
    unread_tile: "第 {n} 组有一张没认出的牌(?):请点它并选择正确的牌。",
    bad_meld: "第 {n} 组不是顺子、刻子或杠;请改正牌张或更改用途。",
    meld_from_winner: "第 {n} 组:副露不能来自和牌者本人;请选择来自谁。",
    value: "分值", items: "计分项", multipliers: "倍数", payments: "支付", wilds: "百搭/赖子",
    indicator: "指示牌", wild_kinds: "百搭:", fish: "钓鱼", bloom: "开花", eligible: "可用", not_eligible: "不可用", stands_for: "代替",
    matched: "对应 {seat}", notes: "说明", pays: "付", total: "合计", for_payer: "对 {seat}",
    recorded: "已记账。", undone: "已撤销:{what}", nothing_to_undo: "没有可撤销的。",
    confirm_undo: "撤销 {what}?", yes_undo: "撤销", confirm_draw: "第 {n} 局记为流局?",
    yes_draw: "记为流局", need_declarer: "请选择谁开杠。", need_discarder: "请选择是谁的牌。",
    need_claimer: "请选择谁碰。", need_other: "不能碰自己的牌。", last_drawer: "谁摸了最后一张牌?(下局由他坐庄)",
    need_last_drawer: "请选择摸最后一张牌的人:本规则由他坐庄。", kong_title: "记录杠", kong_type: "类型", kong_exposed: "明杠(点杠)",
    kong_concealed: "暗杠", kong_added_t: "加杠", declarer: "谁开杠?", discarder: "杠谁的牌",
    record: "记录", claim_title: "记录碰牌", claimer: "谁碰?", claim_meld: "类型",
    ev_win: "{who} 和牌", ev_draw: "流局", ev_kong: "{who}:{kind}", ev_claim: "{who} {meld}了 {from} 的牌",
    ev_self_draw: "自摸", ev_discard: "{who} 点炮", ev_refused: "{who}:不计分", corrected: "已更正", correct: "更正",
    undone_tag: "已撤销", history: "完整记录({n} 条)", hand_ev: "牌局", start: "开始", no_events: "还没有牌局,祝好运!",
    pung: "碰", kong: "明杠", concealed_kong: "暗杠", added_kong: "加杠",
    err_network: "连不上服务器。请检查 Wi-Fi;已记录的数据不会丢失。", err_generic: "出错了:{m}",
    live: "实时", you_are_here: "", photo_too_big: "浏览器无法读取这个文件,请换一张照片。",
    options_json_bad: "选项 {name} 需要有效的 JSON。", option_range: "{name}:请填 {min} 到 {max} 之间的数。",
    payout_hint: "每格的分数,0 到 {max}。留空为规则书的分数(—:这一项在这种和法下不算)。",
    payout_bad: "{cell}:请填 {min} 到 {max} 的整数,或留空按规则书的分数。", list_sep: ";", payout_guide: "规则书的表",
    names_needed: "每个座位都要填玩家名字。",
    no_variants: "还没有安装任何规则。", open: "打开", watch: "观看",
    hand_axis: "局", try_again: "重试", no_tiles_read: "这张照片里没有认出牌。",
    photo_late: "照片识别完成时你已输入了牌:保留你输入的牌。想用照片请点“重拍”。",
    err_not_a_win: "这副牌不成和", err_below_minimum: "番数不够起和", err_not_on_discard: "这副牌只能自摸",
    err_sealed: "和牌者被封,不能和", err_wrong_tile_count: "牌数不对", err_too_many_copies: "同一张牌太多",
    err_tile_not_in_set: "本规则的牌里没有这张", err_bad_meld: "副露不对", err_bad_notation: "牌的写法不对",
    err_bad_input: "输入有误", err_bad_json: "数据格式错误", err_too_large: "照片太大", err_not_an_image: "这不是照片",
    err_no_such_table: "找不到牌桌", err_read_only: "观看链接不能修改", err_nothing_to_undo: "没有可撤销的",
    err_stale: "账本刚被其他设备修改", err_bad_option: "规则选项有误",
    act_settings: "牌桌设置", set_names: "玩家名字", save_names: "保存名字", names_saved: "名字已保存。",
    nothing_changed: "没有改动。", set_seats: "换座位", swap_seats: "交换座位",
    swap_hint: "点两位玩家:从下一局起他们交换座位(以及各自本该坐的风位);庄位、连庄和圈风不变。当前是第 {n} 局。",
    swapped: "{a} 和 {b} 从第 {n} 局起交换座位。", save_rules: "修改本桌规则",
    rules_hint: "新规则从下一局起生效;已记账的牌局仍按当时的规则计算。",
    rules_waiting: "显示的是下一局起已改好的规则。", rules_saved: "本桌规则已修改,从第 {n} 局起生效。",
    ev_rename: "{was} 改名为 {name}", ev_swap: "{a} ⇄ {b} 从第 {n} 局起交换座位",
    ev_rules: "第 {n} 局起的规则:{list}", rules_of: "第 {n} 局起的规则",
    err_duplicate_name: "玩家名字重复", err_no_change: "没有改动",
    meld_check: "副露与账本记录不符,请核对",
    meld_disagrees: "{who}:副露 {tiles} 填的是来自 {from},但本局账本记录的是来自 {rec} 的{meld}。",
    meld_not_entered: "{who}:本局账本记录了来自 {rec} 的{meld},但手牌里没有这组副露。",
    err_idempotency_key_reused: "这个请求标识已被另一次操作用过",
    stale_title: "另一台设备先改动了账本,所以这里没有记账:",
    chg_recorded: "已记录 — 第 {n} 局:{what}", chg_correct: "已更正 — 第 {n} 局:{what}", chg_undo: "已撤销 — {what}",
    chg_other: "已改动 — {what}", chg_more: "……以及更早的 {n} 项改动", chg_reload: "牌桌已重新载入。",
    chg_unknown: "之前的一项", dismiss: "知道了",
    stale_again: "请先核对牌桌,如果仍然需要,请重新记录。",
    stale_rescored: "已按第 {n} 局重新计分(玩家不变):请核对结果后再确认。",
    stale_correct_gone: "你正在更正的这一局已在那边被改动:请从账本重新打开它。",
    winner_tab: "和牌者 {n}", remove_winner: "去掉和牌者 {who}", cmp_title: "输赢:原记录与更正后", cmp_before: "原记录", cmp_after: "更正后",
  },
};

/**
 * Every error code the server can send, in English and Chinese ([en, zh]). In Chinese the page
 * leads the server's message with the translation; in English the server's own message (which
 * says what is wrong and what to do) is shown, this text only when it sends none.
 * tests/companion/test_messages.py checks that every code in engine/, vision/ and companion/ is here.
 */
export const ERRORS = {
  bad_input: ["The input is not right", "输入有误"],
  bad_json: ["The data sent is malformed", "数据格式错误"],
  bad_meld: ["A meld is not right", "副露不对"],
  bad_notation: ["The tiles are written wrongly", "牌的写法不对"],
  bad_option: ["A house rule is not right", "规则选项有误"],
  bad_seat: ["Not a seat (E, S, W, N)", "座位不对(东南西北)"],
  below_minimum: ["Not enough to win by this table's rules", "番数不够起和"],
  busy: ["The server is busy reading other photos", "服务器正忙着识别别的照片"],
  chow_claim_not_allowed: ["This table does not allow a chow from a discard", "本桌不能吃牌"],
  database_damaged: ["The ledger file is damaged", "账本文件损坏"],
  disk_full: ["The server's disk is full", "服务器磁盘已满"],
  empty_file: ["The photo is empty", "照片是空的"],
  fewer_than_eight: ["Fewer than eight tiles of one suit", "同一门牌不足八张"],
  http_error: ["The server refused the request", "服务器拒绝了请求"],
  internal: ["The server hit an error; nothing was recorded", "服务器出错,没有记录任何东西"],
  invalid: ["The input is not right", "输入有误"],
  method_not_allowed: ["The server does not take this request", "服务器不接受这个请求"],
  missing_indicator: ["The Baida indicator is missing", "缺少百搭指示牌"],
  no_such_hand: ["That hand is no longer in the ledger", "账本里已没有这一局"],
  no_such_photo: ["No such photo at this table", "本桌没有这张照片"],
  no_such_table: ["Table not found", "找不到牌桌"],
  not_a_win: ["These tiles are not a winning hand", "这副牌不成和"],
  not_an_image: ["This is not a photo", "这不是照片"],
  not_found: ["Not found", "找不到"],
  not_on_discard: ["This hand can only win by self-draw", "这副牌只能自摸"],
  nothing_to_undo: ["Nothing to undo", "没有可撤销的"],
  rate_limited: ["Too many requests: wait a moment", "请求太频繁,请稍等"],
  read_only: ["A watch link cannot change the table", "观看链接不能修改"],
  recognizer_unavailable: ["The tile reader is not available", "识别牌的功能不可用"],
  refused: ["The rules refuse this hand", "规则不允许这副牌"],
  sealed: ["The winner is sealed and cannot win", "和牌者被封,不能和"],
  seven_pairs_not_allowed: ["This table does not allow seven pairs", "本桌不能和七对"],
  stale: ["Another device changed the ledger just now", "账本刚被其他设备修改"],
  camera_starting: ["The table camera has not given a picture yet; try again in a moment", "桌面相机还没有画面,请稍后再试"],
  no_camera: ["This server has no table camera; start it with mjc serve --camera 0, or take a photo", "本服务器没有桌面相机;请用 mjc serve --camera 0 启动,或改为拍照"],
  duplicate_name: ["Two players have the same name; give each player a different name", "有两位玩家同名,请给每位玩家不同的名字"],
  no_change: ["Nothing would change; pick a different name, seat or rule", "没有任何改变;请选择不同的名字、座位或规则"],
  idempotency_key_reused: ["This action was already sent with different details; try it again", "此操作已以不同内容发送过,请重新操作"],
  storage_unavailable: ["The server cannot write the ledger", "服务器无法写入账本"],
  tile_not_in_set: ["This rule set has no such tile", "本规则的牌里没有这张"],
  too_large: ["The photo is too large", "照片太大"],
  too_many_copies: ["Too many copies of one tile", "同一张牌太多"],
  too_small: ["The photo is too small to read tiles", "照片太小,认不出牌"],
  truncated: ["The photo file is cut short", "照片文件不完整"],
  unknown_host: ["The server does not answer to this address", "服务器不接受这个地址"],
  unknown_variant: ["No such rule set", "没有这个规则"],
  unsupported_format: ["Use a JPEG or PNG photo", "请用 JPEG 或 PNG 照片"],
  unsupported_media_type: ["Send the data as JSON or a photo", "请以 JSON 或照片发送"],
  wild_flower_exposed: ["A wild cannot stand for a flower", "百搭不能当花牌"],
  wild_in_meld: ["A wild cannot be in a claimed meld", "副露里不能有百搭"],
  wrong_tile_count: ["Wrong number of tiles", "牌数不对"],
};

/**
 * The rule sets' result notes (each rule set's variant.py), in players' words in both languages:
 * [pattern, English, Chinese]; {1}, {2} are the pattern's groups, a seat letter becomes the player.
 */
const NOTES = [
  [/^the discard goes to ([ESWN]), (?:closer|nearer) in turn after ([ESWN])/, "The discard goes to {1}, the next in turn after {2}.", "这张牌归 {1}(点炮者 {2} 之后最近的一位)。"],
  [/^the dealer pays (\d+) more points for a streak of (\d+)$/, "The dealer pays {1} more points for a streak of {2}.", "庄家连庄 {2} 局,多付 {1} 分。"],
  [/^no sea floor bonus on a discard/, "No last-tile bonus on a discard: the last tiles are not discarded.", "点和不算海底:海底阶段不打牌。"],
  [/^also applies, not added \(combine: highest\): (.+) (\d+)$/, "Also applies but not added (only the best counts): {1} {2}.", "也符合但不另加(只算最高的一项):{1} {2}。"],
  [/^robbed kong: ([ESWN])'s kong never stands/, "Robbed kong: {1}'s kong does not stand, so record no kong payment for it.", "抢杠:{1} 的杠不成立,不要记杠钱。"],
  [/^the robbed kong was ([ESWN])'s; the contract makes ([ESWN]) pay alone, ×5 once$/, "The robbed kong was {1}'s; under the contract {2} pays alone, ×5 once.", "被抢的杠是 {1} 的;包牌由 {2} 一人付,×5 一次。"],
  [/^([ESWN]) is both the robbed kong's declarer and the contracted player: ×5 once$/, "{1} both had the robbed kong and is under contract: ×5 once.", "{1} 既被抢杠又被包牌:×5 一次。"],
  [/^first_turn: the dealer's Heavenly Win is a self-draw/, "First turn: the dealer's heavenly win must be a self-draw on the starting hand; not counted.", "天和必须是庄家起手自摸;不算。"],
  [/^first_turn: Earthly Win is a win on the dealer's first discard/, "First turn: an earthly win is a win on the dealer's first discard; not counted.", "地和是和庄家打出的第一张牌;不算。"],
];

/**
 * A result note in the current language, its seats named by `who(seat)` (the note as the rule set
 * wrote it when no pattern knows it).
 * @param {string} note
 * @param {(seat: string) => string} who
 */
export function localNote(note, who) {
  for (const [pattern, en, zh] of NOTES) {
    const m = pattern.exec(note);
    if (!m) continue;
    let text = currentLang() === "zh" ? zh : en;
    m.slice(1).forEach((g, k) => {
      text = text.split(`{${k + 1}}`).join(/^[ESWN]$/.test(g) ? who(g) : g);
    });
    return text;
  }
  return note;
}

/** The current language: "en" or "zh". */
export function currentLang() {
  return store.get("lang");
}

/**
 * The string `key` in the current language (English when the language lacks it, the key itself
 * when neither has it), with each {name} replaced by vars[name].
 * @param {string} key
 * @param {Record<string, string | number>} [vars]
 */
export function t(key, vars) {
  let text = STRINGS[currentLang()]?.[key] ?? STRINGS.en[key] ?? key;
  for (const [k, v] of Object.entries(vars || {})) text = text.split(`{${k}}`).join(String(v));
  return text;
}

/** The Chinese lead for a known server error code (null in English or for an unknown code). */
export function errorLead(code) {
  return (currentLang() === "zh" && ERRORS[code]?.[1]) || null;
}

/** A server error code's message in the current language (null for an unknown code). */
export function errorMessage(code) {
  return ERRORS[code]?.[currentLang() === "zh" ? 1 : 0] ?? null;
}

/** A seat wind's name ("East", "东"). */
export function windName(wind) {
  return t("wind_" + wind);
}

/** A seat wind's short name ("E", "东"). */
export function windShort(wind) {
  return t("wind_short_" + wind);
}

/** The label of a server object with `label` and `label_zh`, in the current language. */
export function localLabel(obj) {
  return currentLang() === "zh" ? obj.label_zh || obj.label : obj.label || obj.label_zh;
}

/**
 * A time the server sent (UTC, ISO 8601) as the tablet's clock shows it: in the browser's time
 * zone, as "21:05", or with the date ("24 Nov 2026, 21:05") when `withDate`.
 */
export function localTime(iso, withDate = false) {
  const when = new Date(iso);
  if (Number.isNaN(when.getTime())) return String(iso);
  const opts = withDate ? { dateStyle: "medium", timeStyle: "short" } : { hour: "2-digit", minute: "2-digit" };
  return new Intl.DateTimeFormat(currentLang() === "zh" ? "zh-CN" : undefined, opts).format(when);
}

/** "+3" for 3, "-2" for -2, "0" for 0. */
export function signed(n) {
  return (n > 0 ? "+" : "") + n;
}

/** Fill the static page text (elements with data-i18n), the language button and the title. */
export function applyStaticText() {
  document.documentElement.lang = currentLang() === "zh" ? "zh-Hans" : "en";
  document.querySelectorAll("[data-i18n]").forEach((el) => {
    el.textContent = t(/** @type {HTMLElement} */ (el).dataset.i18n);
  });
  byId("lang-toggle").textContent = currentLang() === "zh" ? "English" : "中文";
  document.title = t("app_title");
}
