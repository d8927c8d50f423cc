#!/usr/bin/env node
// A small engine for two kinds of case, meld and hand, written from the rules of the
// games (docs/rules.md) and speaking the engine protocol (docs/engine-protocol.md):
// JSON lines on standard input and output. No dependencies: Node's own modules only.
//
//   node engine.js                         the rules as written
//   node engine.js --ace-after-king-one    an ace after the king counts 1 in a run
//                                          (also ENGINE_ACE_AFTER_KING_ONE=1): a
//                                          deliberate difference for the conformance kit
'use strict';

const readline = require('readline');

const ACE_AFTER_KING_ONE = process.argv.includes('--ace-after-king-one') ||
  process.env.ENGINE_ACE_AFTER_KING_ONE === '1';

// The games: jokers allowed in a meld, whether melds score, where an ace may stand.
const GAMES = {
  rami40: { jokersPerMeld: 1, meldPoints: true, aceLow: true, presets: ['reference', 'house'] },
  rami51: { jokersPerMeld: 1, meldPoints: true, aceLow: true, presets: ['reference', 'house'] },
  cardverse: { jokersPerMeld: 0, meldPoints: false, aceLow: false, options: ['ace_high', 'discard_to_win'] },
};

const RANKS = { A: 1, J: 11, Q: 12, K: 13 };
const SUITS = 'CDHS';

class RequestError extends Error {}

function parseCard(code) {
  if (typeof code !== 'string') throw new RequestError(`not a card code: ${JSON.stringify(code)}`);
  if (code === 'JK') return { joker: true };
  const suit = code.slice(-1);
  const rankText = code.slice(0, -1);
  const rank = RANKS[rankText] || (/^([2-9]|10)$/.test(rankText) ? Number(rankText) : 0);
  if (!rank || !SUITS.includes(suit)) throw new RequestError(`unknown card ${JSON.stringify(code)}`);
  return { joker: false, rank, suit };
}

function cardList(value, name) {
  if (!Array.isArray(value)) throw new RequestError(`${name}: expected a list of card codes`);
  return value.map(parseCard);
}

// Points of a place in a run: 1 the low ace, 2-9 face value, 10-13 (10, J, Q, K) 10,
// 14 the ace after the king: 11 (1 with the switch on).
function placePoints(place) {
  if (place === 1) return 1;
  if (place === 14) return ACE_AFTER_KING_ONE ? 1 : 11;
  return place >= 10 ? 10 : place;
}

// Points of a rank in a set: an ace 11, 10 J Q K 10, others face value.
function setPoints(rank) {
  if (rank === 1) return 11;
  return rank >= 10 ? 10 : rank;
}

// The first places (start, start+1, ..., start+n-1) where the naturals fit at distinct
// places, an ace at 1 or 14 as aceLow allows; every window that fits.
function windows(naturals, n, aceLow) {
  const found = [];
  for (let start = 1; start + n - 1 <= 14; start += 1) {
    const end = start + n - 1;
    const used = new Set();
    let fits = true;
    for (const card of naturals) {
      const places = card.rank === 1 ? (aceLow ? [1, 14] : [14]) : [card.rank];
      const place = places.find((p) => p >= start && p <= end && !used.has(p));
      if (place === undefined) { fits = false; break; }
      used.add(place);
    }
    if (fits) found.push({ start, end, used });
  }
  return found;
}

// Whether the naturals and jokers would form a gap-free run of distinct ranks passing
// K-A-2 (the ace needed both after the king and before the two).
function wraps(naturals, n) {
  const ranks = naturals.map((c) => c.rank);
  if (new Set(ranks).size !== ranks.length || n > 13) return false;
  for (let start = 1; start <= 13; start += 1) {
    const window = [];
    for (let i = 0; i < n; i += 1) window.push(((start - 1 + i) % 13) + 1);
    if ([13, 1, 2].every((r) => window.includes(r)) && window.indexOf(2) > window.indexOf(13) &&
        ranks.every((r) => window.includes(r))) return true;
  }
  return false;
}

function meld(cards, game, preset) {
  const rules = GAMES[game];
  const naturals = cards.filter((c) => !c.joker);
  const jokers = cards.length - naturals.length;
  const oneRank = naturals.length > 0 && naturals.every((c) => c.rank === naturals[0].rank);
  const oneSuit = naturals.length > 0 && naturals.every((c) => c.suit === naturals[0].suit);
  const type = oneRank ? 'set' : oneSuit ? 'run' : null;
  const invalid = (reason) => (type ? { verdict: 'invalid', type, reason } : { verdict: 'invalid', reason });
  if (jokers > rules.jokersPerMeld) return invalid('too_many_jokers');
  if (cards.length < 3) return invalid('too_few_cards');
  if (!type) return invalid('not_a_meld');
  const jokerPoints = preset === 'house' ? 15 : null;
  if (type === 'set') {
    if (cards.length > 4) return invalid('too_many_cards');
    if (new Set(naturals.map((c) => c.suit)).size < naturals.length) return invalid('duplicate_suit');
    const each = setPoints(naturals[0].rank);
    const points = each * naturals.length + jokers * (jokerPoints === null ? each : jokerPoints);
    return valid('set', points, rules);
  }
  if (cards.length > 13) return invalid('too_many_cards');
  const fits = windows(naturals, cards.length, rules.aceLow);
  if (fits.length === 0) {
    if (wraps(naturals, cards.length)) return invalid('wraps_around');
    if (!rules.aceLow && windows(naturals, cards.length, true).length > 0) return invalid('ace_low_not_allowed');
    return invalid('not_consecutive');
  }
  // The joker takes the place worth fewest points, on equal points the lower rank.
  let best = null;
  for (const w of fits) {
    let total = 0;
    for (let p = w.start; p <= w.end; p += 1) total += placePoints(p);
    if (best === null || total < best.total) best = { total, w };
  }
  let points = best.total;
  if (jokerPoints !== null) {
    points = 15 * jokers;
    for (const p of best.w.used) points += placePoints(p);
  }
  return valid('run', points, rules);
}

function valid(type, points, rules) {
  return rules.meldPoints ? { verdict: 'valid', type, points } : { verdict: 'valid', type };
}

function hand(cards, game, preset, options) {
  let points = 0;
  for (const card of cards) {
    if (card.joker) points += preset === 'house' ? 15 : 25;
    else if (card.rank === 1) points += game === 'cardverse' && !options.ace_high ? 1 : 11;
    else points += card.rank >= 10 ? 10 : card.rank;
  }
  return { points };
}

const KINDS = {
  meld: { fields: ['verdict', 'type', 'points', 'reason'], judge: (i, g, p) => meld(cardList(i.cards, 'cards'), g, p) },
  hand: { fields: ['points'], judge: (i, g, p, o) => hand(cardList(i.cards, 'cards'), g, p, o) },
};

function answer(line) {
  let message;
  try {
    message = JSON.parse(line);
  } catch (error) {
    return { id: 0, error: `not JSON: ${error.message}` };
  }
  const id = Number.isInteger(message && message.id) && message.id >= 1 ? message.id : 0;
  try {
    const kind = KINDS[message.kind];
    if (!kind) throw new RequestError(`kind ${JSON.stringify(message.kind)} is not covered`);
    const rules = GAMES[message.game];
    if (!rules) throw new RequestError(`game ${JSON.stringify(message.game)} is not covered`);
    if (rules.presets && !rules.presets.includes(message.rules)) throw new RequestError('expected rules: reference or house');
    const cards = (message.inputs || {}).cards;
    if (Array.isArray(cards) && cards.some((c) => c === 'JK') && !rules.jokersPerMeld) {
      throw new RequestError(`a joker in ${message.game}, which has none`);
    }
    return { id, values: kind.judge(message.inputs || {}, message.game, message.rules, message.options || {}) };
  } catch (error) {
    if (error instanceof RequestError) return { id, error: error.message };
    throw error;
  }
}

function main() {
  const kinds = {};
  for (const [name, kind] of Object.entries(KINDS)) kinds[name] = kind.fields;
  const name = ACE_AFTER_KING_ONE ? 'engine-js 1 (ace after the king counts 1)' : 'engine-js 1';
  process.stdout.write(`${JSON.stringify({ protocol: 1, engine: name, kinds, games: Object.keys(GAMES) })}\n`);
  const lines = readline.createInterface({ input: process.stdin, crlfDelay: Infinity });
  lines.on('line', (line) => {
    if (line.trim()) process.stdout.write(`${JSON.stringify(answer(line))}\n`);
  });
}

main();
