// All UI strings in both languages, and card naming (rank/suit tables only:
// naming is not rules — the browser never decides what a card can do).

export const STRINGS = {
  ru: {
    title: "Пирамида",
    score: "Очки",
    moves: "Ходы",
    time: "Время",
    deal: "Расклад",
    layout: "по списку карт",
    copy: "Копировать код расклада",
    copied: "Скопировано",
    copyFailed: "Не удалось скопировать",
    newGame: "Новая игра",
    replay: "Сыграть ещё раз",
    undo: "Отменить",
    hint: "Подсказка",
    stats: "Статистика",
    settings: "Настройки",
    close: "Закрыть",
    pyramid: "Пирамида",
    wasteZone: "Отбой",
    pilesZone: "Колода и отбой",
    statusBar: "Счёт партии",
    cellEmpty: "Свободная ячейка",
    cellFull: "Ячейка",
    stockCards: "Колода, карт: {n}",
    stockRecycle: "Колода пуста — перевернуть отбой",
    stockEmpty: "Колода пуста",
    redealsLeft: "Осталось проходов колоды: {n}",
    openCard: "открытая карта колоды: {name}",
    random: "Случайный",
    byCode: "По коду",
    cardList: "Список карт",
    randomHelp: "Новый расклад наугад по выбранным правилам.",
    winnableOnly: "Только выигрышные расклады",
    codeLabel: "Код расклада",
    codeHelp: "Вставьте код, например PY1-N-AAAAAAS: те же карты по тем же правилам.",
    layoutLabel: "52 карты",
    layoutHelp: "Через пробел: 28 карт пирамиды по рядам сверху вниз, слева направо, затем карта отбоя и 23 карты колоды сверху вниз. Например: JD 6C 7H … (10 можно писать как T).",
    rulesLabel: "Правила",
    dealBtn: "Сдать",
    playBtn: "Играть",
    searching: "Ищу расклад…",
    language: "Язык",
    explainErrors: "Объяснять ошибки (например, заблокированную карту)",
    warnLost: "Предупреждать, когда позицию уже не выиграть",
    animations: "Анимация",
    sounds: "Звуки",
    cardBack: "Рубашка карт",
    felt: "Цвет стола",
    colour_red: "Красная",
    colour_blue: "Синяя",
    colour_green: "Зелёная",
    colour_black: "Чёрная",
    felt_green: "Зелёный",
    felt_blue: "Синий",
    felt_red: "Бордовый",
    felt_grey: "Серый",
    rulesForNew: "Правила для новых игр",
    keysHelp: "Клавиши: стрелки и Tab — выбор карты, Enter/пробел — нажать, D — колода, U или Ctrl+Z — отмена, H — подсказка, S — решение, N — новая игра, Esc — закрыть окно.",
    played: "Сыграно",
    won: "Выиграно",
    winRate: "Доля побед",
    currentStreak: "Текущая серия",
    bestStreak: "Лучшая серия",
    bestGames: "Лучшие игры",
    distribution: "Распределение очков",
    noGames: "Пока нет завершённых игр по этим правилам.",
    colScore: "Очки",
    colTime: "Время",
    colMoves: "Ходы",
    colDeal: "Расклад",
    colDate: "Дата",
    games: "игр",
    wonTitle: "Победа!",
    lostTitle: "Ходов больше нет",
    wonText: "Пирамида разобрана.",
    lostText: "В пирамиде осталось карт: {n}.",
    endSummary: "Очки: {score} · ходы: {moves} · время: {time}",
    solution: "Решение",
    stop: "Стоп",
    solving: "Ищу кратчайшее решение…",
    solutionShortest: "Выигрыш. Ходов: {n} — короче не бывает.",
    solutionFound: "Выигрыш. Ходов: {n} — самое короткое из найденных за отведённое время.",
    solutionLost: "Выиграть нельзя. Лучшее — убрать {n} из 28 карт пирамиды, ходов: {m}.",
    solutionUnknown: "Решатель не успел выяснить, можно ли выиграть.",
    solutionNone: "Больше ни одну карту пирамиды не убрать.",
    solutionOver: "Игра окончена.",
    solutionNote: "Если показать ходы, игра не засчитается как победа.",
    solutionPlay: "Показать ходы",
    solutionMoves: "Ходы решения",
    solutionStopped: "Показ решения остановлен",
    solvedByComputer: "Решено компьютером — в статистике это не победа.",
    statSolved: "Решено компьютером",
    times: "×{n}",
    lostWarning: "Эту позицию уже не выиграть — можно начать новую игру.",
    hintDraw: "Подсказка: возьмите карту из колоды",
    hintRecycle: "Подсказка: переверните отбой в колоду",
    hintNone: "Подсказать нечего",
    hintPair: "Подсказка: {a} и {b}",
    hintKing: "Подсказка: {a}",
    hintLost: "Выигрыша уже нет; лучшее — убрать {n} из 28 карт пирамиды",
    stale: "Игра изменилась в другой вкладке — показано текущее состояние",
    noCode: "У расклада по списку карт нет кода",
    abandonTitle: "Начать новую партию?",
    abandonText: "Ссылка открывает другой расклад, а партия {code} ещё идёт (ходов: {moves}). Если начать новую, текущая засчитается как сыгранная и не выигранная.",
    abandonKeep: "Продолжить текущую",
    abandonLeave: "Начать новую",
    offline: "Нет связи с сервером",
    serverError: "Ошибка сервера (HTTP {status})",
    noGame: "Нет текущей игры",
    langRu: "Русский",
    langEn: "English",
  },
  en: {
    title: "Pyramid",
    score: "Score",
    moves: "Moves",
    time: "Time",
    deal: "Deal",
    layout: "layout",
    copy: "Copy the deal code",
    copied: "Copied",
    copyFailed: "Could not copy",
    newGame: "New game",
    replay: "Replay this deal",
    undo: "Undo",
    hint: "Hint",
    stats: "Statistics",
    settings: "Settings",
    close: "Close",
    pyramid: "Pyramid",
    wasteZone: "Waste",
    pilesZone: "Stock and waste",
    statusBar: "Game score",
    cellEmpty: "Free cell, empty",
    cellFull: "Free cell",
    stockCards: "Stock, {n} cards",
    stockRecycle: "Stock empty — turn the waste over",
    stockEmpty: "Stock empty",
    redealsLeft: "Passes left: {n}",
    openCard: "open stock card: {name}",
    random: "Random",
    byCode: "By code",
    cardList: "Card list",
    randomHelp: "A new random deal under the chosen rules.",
    winnableOnly: "Winnable deals only",
    codeLabel: "Deal code",
    codeHelp: "Paste a code such as PY1-N-AAAAAAS: the same cards under the same rules.",
    layoutLabel: "52 cards",
    layoutHelp: "Separated by spaces: the 28 pyramid cards row by row, top to bottom, left to right, then the waste card and the 23 stock cards from the top. E.g. JD 6C 7H … (10 may be written T).",
    rulesLabel: "Rules",
    dealBtn: "Deal",
    playBtn: "Play",
    searching: "Looking for a deal…",
    language: "Language",
    explainErrors: "Explain errors (e.g. a blocked card)",
    warnLost: "Warn when the position can no longer be won",
    animations: "Animations",
    sounds: "Sounds",
    cardBack: "Card back",
    felt: "Table colour",
    colour_red: "Red",
    colour_blue: "Blue",
    colour_green: "Green",
    colour_black: "Black",
    felt_green: "Green",
    felt_blue: "Blue",
    felt_red: "Burgundy",
    felt_grey: "Grey",
    rulesForNew: "Rules for new games",
    keysHelp: "Keys: arrows and Tab pick a card, Enter/Space taps, D draws, U or Ctrl+Z undoes, H hints, S shows the solution, N new game, Esc closes a dialog.",
    played: "Played",
    won: "Won",
    winRate: "Win rate",
    currentStreak: "Current streak",
    bestStreak: "Best streak",
    bestGames: "Best games",
    distribution: "Score distribution",
    noGames: "No finished games under these rules yet.",
    colScore: "Score",
    colTime: "Time",
    colMoves: "Moves",
    colDeal: "Deal",
    colDate: "Date",
    games: "games",
    wonTitle: "You won!",
    lostTitle: "No more moves",
    wonText: "The pyramid is cleared.",
    lostText: "Cards left in the pyramid: {n}.",
    endSummary: "Score: {score} · moves: {moves} · time: {time}",
    solution: "Solution",
    stop: "Stop",
    solving: "Looking for the shortest solution…",
    solutionShortest: "A win. Moves: {n}, the shortest there is.",
    solutionFound: "A win. Moves: {n}, the shortest found in the time allowed.",
    solutionLost: "No win. At best {n} of the 28 pyramid cards go, moves: {m}.",
    solutionUnknown: "The solver ran out of time before it could tell whether this is winnable.",
    solutionNone: "No other pyramid card can ever go.",
    solutionOver: "The game is over.",
    solutionNote: "If you play the moves, the game does not count as a win.",
    solutionPlay: "Play the moves",
    solutionMoves: "Moves of the solution",
    solutionStopped: "Solution stopped",
    solvedByComputer: "Solved by the computer: not counted as a win.",
    statSolved: "Solved by the computer",
    times: "×{n}",
    lostWarning: "This position can no longer be won — you may start a new game.",
    hintDraw: "Hint: draw a card from the stock",
    hintRecycle: "Hint: turn the waste over",
    hintNone: "Nothing to hint",
    hintPair: "Hint: {a} and {b}",
    hintKing: "Hint: {a}",
    hintLost: "No win left; the best is to remove {n} of the 28 pyramid cards",
    stale: "The game changed in another tab — showing its current state",
    noCode: "A deal given as a card list has no code",
    abandonTitle: "Start a new game?",
    abandonText: "The link opens another deal, but game {code} is in progress ({moves} moves). If you start the new one, this game counts as played and not won.",
    abandonKeep: "Keep playing this one",
    abandonLeave: "Start the new game",
    offline: "No connection to the server",
    serverError: "Server error (HTTP {status})",
    noGame: "No game in progress",
    langRu: "Русский",
    langEn: "English",
  },
};

const RANKS = ["A", "2", "3", "4", "5", "6", "7", "8", "9", "10", "J", "Q", "K"];
const RU_INDEX = { A: "Т", J: "В", Q: "Д", K: "К" };
const RANK_NAMES = {
  ru: ["туз", "двойка", "тройка", "четвёрка", "пятёрка", "шестёрка", "семёрка",
    "восьмёрка", "девятка", "десятка", "валет", "дама", "король"],
  en: ["ace", "two", "three", "four", "five", "six", "seven",
    "eight", "nine", "ten", "jack", "queen", "king"],
};
const SUIT_NAMES = {
  ru: { C: "треф", D: "бубен", H: "червей", S: "пик" },
  en: { C: "clubs", D: "diamonds", H: "hearts", S: "spades" },
};

/** Split "10H" into {rank: "10", suit: "H"}; a two-deck game's mark ("KD'") is
 * part of the code only, not of the card's face or name. */
export function parseCard(code) {
  const plain = code.replace(/'+$/, "");
  return { rank: plain.slice(0, -1), suit: plain.slice(-1) };
}

/** The corner index in the UI language: Т К Д В in Russian, A K Q J in English. */
export function cardIndex(code, lang) {
  const { rank } = parseCard(code);
  return lang === "ru" ? (RU_INDEX[rank] || rank) : rank;
}

/** The full name for screen readers: "дама треф", "queen of clubs". */
export function cardName(code, lang) {
  const { rank, suit } = parseCard(code);
  const i = RANKS.indexOf(rank);
  if (lang === "ru") return `${RANK_NAMES.ru[i]} ${SUIT_NAMES.ru[suit]}`;
  return `${RANK_NAMES.en[i]} of ${SUIT_NAMES.en[suit]}`;
}

export function isRed(code) {
  const { suit } = parseCard(code);
  return suit === "H" || suit === "D";
}

export function isFace(code) {
  const { rank } = parseCard(code);
  return rank === "J" || rank === "Q" || rank === "K";
}

/** Look a string up and fill {placeholders}. */
export function translate(lang, key, vars = {}) {
  const table = STRINGS[lang] || STRINGS.en;
  const text = table[key] ?? STRINGS.en[key] ?? key;
  return text.replace(/\{(\w+)\}/g, (_, name) => String(vars[name] ?? ""));
}

/** Seconds → "m:ss" or "h:mm:ss". */
export function formatTime(seconds) {
  const s = Math.max(0, Math.floor(seconds || 0));
  const h = Math.floor(s / 3600);
  const m = Math.floor((s % 3600) / 60);
  const ss = String(s % 60).padStart(2, "0");
  return h > 0 ? `${h}:${String(m).padStart(2, "0")}:${ss}` : `${m}:${ss}`;
}
