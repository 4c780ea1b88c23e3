/**
 * Critical actions: the ones that spend money, delete, send, transfer or subscribe. Harbor asks
 * before every one of them, whatever the user granted. The button text comes from the page, so it
 * is read the way a person would see it: look-alike letters, leetspeak, spaced-out letters and
 * invisible characters do not hide a "Buy".
 */

type Language = 'en' | 'fr' | 'de' | 'es' | 'it' | 'pt' | 'nl' | 'ru' | 'ar' | 'zh' | 'ja';

interface Vocabulary {
  /** The action itself: a button saying one of these commits something. Whole words, not stems. */
  critical: readonly string[];
  /** Phrases that contain a critical word but only read, sort or describe ("Order by price"). */
  harmless: readonly string[];
  /** Buttons that say nothing by themselves ("Continue"): critical on a critical page. */
  confirm: readonly string[];
  /** Path segments (or runs of them, "orders/place") of pages where confirming commits. */
  paths: readonly string[];
}

/**
 * Every word Harbor knows, as data. Chinese and Japanese phrases match anywhere in the text (those
 * scripts do not separate words); the others match whole words, and "checkout" also matches
 * "check out" because spacing inside a phrase is ignored.
 */
const VOCABULARY: Record<Language, Vocabulary> = {
  en: {
    critical: [
      'buy', 'buy now', 'buy it now', 'purchase', 'purchase now', 'complete purchase', 'confirm purchase',
      'pay', 'pay now', 'make payment', 'make a payment', 'submit payment', 'complete payment', 'confirm payment',
      'authorize payment', 'confirm and pay', 'order', 'order now', 'place order', 'place your order',
      'place my order', 'submit order', 'submit your order', 'complete order', 'complete your order',
      'confirm order', 'confirm your order', 'checkout', 'proceed to checkout',
      'delete', 'delete account', 'delete my account', 'remove account', 'remove my account', 'close account',
      'close my account', 'deactivate account', 'send', 'send now', 'send money', 'transfer', 'transfer money',
      'transfer funds', 'wire', 'wire money', 'wire transfer', 'subscribe', 'subscribe now', 'start subscription',
      'donate', 'donate now',
    ],
    harmless: [
      'order by', 'sort order', 'sort by order', 'in order', 'in order to', 'out of order', 'order of',
      'ascending order', 'descending order', 'alphabetical order', 'reverse order', 'order history',
      'order status', 'order details', 'order summary', 'order number', 'order total', 'order date', 'order id',
      'track order', 'track my order', 'track your order', 'view order', 'view your order', 'review your order',
      'purchase history',
      'how to buy', 'where to buy', 'ways to pay', 'how to pay', 'transfer history',
    ],
    confirm: [
      'confirm', 'continue', 'next', 'next step', 'ok', 'okay', 'yes', 'submit', 'proceed', 'done', 'finish',
      'complete', 'accept', 'agree', 'i agree', 'go', 'sure', "i'm sure", 'save', 'please',
    ],
    paths: [
      'checkout', 'checkouts', 'cart/checkout', 'payment', 'pay', 'order', 'orders/place', 'place-order',
      'placeorder', 'purchase', 'buy', 'delete', 'delete-account', 'account/delete', 'account/close',
      'close-account', 'transfer', 'wire', 'send-money', 'subscribe', 'billing', 'donate', 'confirm-payment',
    ],
  },
  fr: {
    critical: [
      'acheter', 'acheter maintenant', 'achat immédiat', 'payer', 'payer maintenant', 'procéder au paiement',
      'commander', 'commander maintenant', 'passer commande', 'passer la commande', 'passer ma commande',
      'valider la commande', 'valider ma commande', 'valider mon panier', 'confirmer la commande',
      'confirmer le paiement', "confirmer l'achat", 'supprimer', 'supprimer mon compte', 'fermer mon compte',
      'fermer le compte', 'clôturer le compte', 'envoyer', 'virement', 'effectuer le virement', 'transférer',
      "s'abonner", 'abonnez-vous', "je m'abonne", 'faire un don', 'faites un don',
    ],
    harmless: ['comment acheter', 'où acheter'],
    confirm: ['confirmer', 'continuer', 'suivant', 'valider', 'oui', "d'accord", 'soumettre', 'terminer', 'accepter', 'enregistrer'],
    paths: ['paiement', 'commande', 'panier/valider'],
  },
  de: {
    critical: [
      'kaufen', 'jetzt kaufen', 'sofort kaufen', 'bezahlen', 'jetzt bezahlen', 'jetzt zahlen', 'bestellen',
      'jetzt bestellen', 'zahlungspflichtig bestellen', 'kostenpflichtig bestellen', 'bestellung abschicken',
      'bestellung absenden', 'kauf abschließen', 'kauf bestätigen', 'zur kasse', 'zur kasse gehen', 'kasse',
      'löschen', 'konto löschen', 'konto schließen', 'senden', 'absenden', 'abschicken', 'überweisen',
      'jetzt überweisen', 'überweisung ausführen', 'abonnieren', 'jetzt abonnieren', 'spenden', 'jetzt spenden',
      'zahlung bestätigen',
    ],
    harmless: ['wie bestellen'],
    confirm: ['bestätigen', 'weiter', 'ja', 'fortfahren', 'fertig', 'akzeptieren', 'speichern', 'einverstanden'],
    paths: ['kasse', 'bezahlen', 'zahlung', 'bestellen'],
  },
  es: {
    critical: [
      'comprar', 'comprar ahora', 'pagar', 'pagar ahora', 'ir a pagar', 'realizar pedido', 'hacer pedido',
      'hacer el pedido', 'confirmar pedido', 'finalizar pedido', 'tramitar pedido', 'finalizar compra',
      'confirmar compra', 'eliminar', 'eliminar cuenta', 'borrar', 'cerrar cuenta', 'cerrar mi cuenta', 'enviar',
      'transferir', 'hacer transferencia', 'realizar transferencia', 'suscribirse', 'suscribirme', 'suscríbete',
      'donar', 'donar ahora', 'confirmar pago', 'realizar pago',
    ],
    harmless: ['cómo comprar', 'dónde comprar'],
    confirm: ['confirmar', 'continuar', 'siguiente', 'sí', 'aceptar', 'listo', 'guardar', 'de acuerdo'],
    paths: ['pago', 'pagar', 'comprar', 'finalizar-compra'],
  },
  it: {
    critical: [
      'acquista', 'acquista ora', 'acquista subito', 'compra', 'compra ora', 'compra subito', 'paga', 'paga ora',
      'conferma ordine', 'invia ordine', 'concludi ordine', 'completa ordine', 'ordina ora', "procedi all'acquisto",
      'procedi al pagamento', 'vai alla cassa', 'cassa', 'elimina', 'elimina account', 'cancella', 'chiudi account',
      'invia', 'trasferisci', 'bonifico', 'esegui bonifico', 'abbonati', 'abbonati ora', 'dona', 'dona ora',
      'fai una donazione', 'conferma pagamento', 'conferma acquisto',
    ],
    harmless: ['come acquistare', 'dove acquistare'],
    confirm: ['conferma', 'continua', 'avanti', 'sì', 'procedi', 'prosegui', 'accetta', 'salva'],
    paths: ['cassa', 'pagamento', 'acquista'],
  },
  pt: {
    critical: [
      'comprar', 'comprar agora', 'compre agora', 'pagar', 'pagar agora', 'finalizar compra', 'finalizar pedido',
      'fazer pedido', 'confirmar pedido', 'fechar pedido', 'excluir', 'excluir conta', 'apagar', 'eliminar',
      'encerrar conta', 'fechar conta', 'enviar', 'transferir', 'fazer transferência', 'assinar', 'assine já',
      'assine agora', 'inscrever-se', 'doar', 'doe agora', 'confirmar pagamento', 'efetuar pagamento',
    ],
    harmless: ['como comprar', 'onde comprar'],
    confirm: ['confirmar', 'continuar', 'próximo', 'seguinte', 'sim', 'avançar', 'prosseguir', 'aceitar', 'salvar'],
    paths: ['pagamento', 'finalizar-compra'],
  },
  nl: {
    critical: [
      'kopen', 'nu kopen', 'koop', 'koop nu', 'betalen', 'nu betalen', 'betaal', 'betaal nu', 'bestellen',
      'nu bestellen', 'bestelling plaatsen', 'bestelling afronden', 'bestelling bevestigen', 'afrekenen',
      'verwijderen', 'account verwijderen', 'account sluiten', 'verzenden', 'versturen', 'verstuur', 'overmaken',
      'overboeken', 'abonneren', 'neem een abonnement', 'doneren', 'doneer', 'betaling bevestigen',
    ],
    harmless: ['hoe bestellen'],
    confirm: ['bevestigen', 'doorgaan', 'volgende', 'ja', 'verder', 'akkoord', 'opslaan'],
    paths: ['afrekenen', 'betalen', 'bestellen'],
  },
  ru: {
    critical: [
      'купить', 'купить сейчас', 'оформить заказ', 'заказать', 'оплатить', 'оплатить заказ', 'перейти к оплате',
      'подтвердить оплату', 'подтвердить заказ', 'удалить', 'удалить аккаунт', 'закрыть счёт', 'отправить',
      'перевести', 'перевести деньги', 'подписаться', 'пожертвовать',
    ],
    harmless: ['как купить', 'где купить'],
    confirm: ['подтвердить', 'продолжить', 'далее', 'да', 'ок', 'готово', 'принять', 'сохранить'],
    paths: ['oplata', 'zakaz'],
  },
  ar: {
    critical: [
      'شراء', 'اشتر', 'اشتري', 'اشتر الآن', 'ادفع', 'ادفع الآن', 'دفع', 'اطلب', 'اطلب الآن', 'إتمام الشراء',
      'إتمام الطلب', 'تأكيد الطلب', 'حذف', 'حذف الحساب', 'إغلاق الحساب', 'إرسال', 'أرسل', 'تحويل',
      'تحويل الأموال', 'اشترك', 'اشترك الآن', 'تبرع', 'تبرع الآن', 'تأكيد الدفع', 'إتمام الدفع',
    ],
    harmless: ['كيفية الشراء'],
    confirm: ['تأكيد', 'متابعة', 'التالي', 'نعم', 'موافق', 'استمرار', 'حفظ'],
    paths: [],
  },
  zh: {
    critical: [
      '购买', '立即购买', '支付', '付款', '下单', '提交订单', '结算', '去结算', '删除', '发送', '转账', '汇款',
      '订阅', '捐款', '捐赠', '确认支付', '确认付款', '注销账户', '注销账号',
      // Traditional characters.
      '購買', '立即購買', '刪除', '發送', '轉帳', '轉賬', '匯款', '訂閱', '結帳', '結賬', '捐贈', '確認付款', '提交訂單',
    ],
    harmless: [
      '支付方式', '付款方式', '支付宝', '购买记录', '购买须知', '付款记录', '支付记录', '转账记录', '发送者', '已删除',
      '结算方式', '購買記錄', '已刪除',
    ],
    confirm: ['确认', '继续', '下一步', '确定', '是', '提交', '好', '保存', '確認', '繼續', '確定'],
    paths: [],
  },
  ja: {
    critical: [
      '購入', '今すぐ購入', '買う', '今すぐ買う', '支払う', '支払いを確定', '支払いを完了', 'お支払いを確定', '注文する',
      '注文を確定', '注文確定', 'ご注文を確定', 'レジに進む', '削除', '送信', '送金', '振込', '振り込む', '購読',
      '定期購読', '寄付', '退会',
    ],
    harmless: ['購入履歴', '注文履歴', '購入方法', '送信者', '削除済み'],
    confirm: ['確認', '続行', '次へ', 'はい', '確定', '続ける', '進む', '保存'],
    paths: [],
  },
};

// ---------------------------------------------------------------------------------------------
// Folding: what the text looks like to a person, in a form the table can be compared with.

/** Zero-width and other invisible characters, plus Arabic tatweel (a stretching stroke). */
const INVISIBLE = /[\p{Cf}\u0640\u115F\u1160\u3164\uFFA0]/gu;
const COMBINING_MARK = /\p{M}/gu;
const RIGHT_TO_LEFT_OVERRIDE = /\u202E([^\u202C]*)/gu;

/**
 * Non-Latin letters that look like Latin ones, in lower case (text is lower-cased first, so an
 * all-caps Russian "КУПИТЬ" folds exactly like the table's "купить"). Fullwidth and mathematical
 * letters need no entry: NFKC already turns them into ASCII.
 */
const LOOK_ALIKES: Record<string, string> = {
  // Cyrillic: the lower-case letter, or the capital it comes from when only that looks Latin.
  а: 'a', в: 'b', е: 'e', к: 'k', м: 'm', н: 'h', о: 'o', р: 'p', с: 'c', т: 't', у: 'y', х: 'x',
  і: 'i', ј: 'j', ѕ: 's', ԁ: 'd', һ: 'h', ԛ: 'q', ԝ: 'w', ӏ: 'l',
  // Greek.
  α: 'a', β: 'b', ε: 'e', ζ: 'z', ι: 'i', κ: 'k', ο: 'o', ρ: 'p', τ: 't', χ: 'x', γ: 'y', ϲ: 'c', ς: 'c',
  // Latin and Armenian oddities.
  ı: 'i', ɑ: 'a', ɡ: 'g', ʀ: 'r', օ: 'o', ս: 'u', հ: 'h', ո: 'n',
};

/** Leetspeak digits and symbols. */
const LEET: Record<string, string> = { '0': 'o', '3': 'e', '4': 'a', '5': 's', '7': 't', '@': 'a', $: 's', '€': 'e' };

/**
 * Characters that look like two different letters (a "1" is an i or an l; a Greek η is an n, but
 * its capital is an H). Each reading is tried, one variant per column.
 */
const AMBIGUOUS: Record<string, readonly [string, string]> = {
  '1': ['i', 'l'],
  η: ['n', 'h'],
  ν: ['v', 'n'],
  υ: ['u', 'y'],
  μ: ['u', 'm'],
};
const VARIANTS = [0, 1] as const;
type Variant = (typeof VARIANTS)[number];

function foldCharacters(text: string, variant: Variant): string {
  const plain = text.normalize('NFKC').toLowerCase().normalize('NFD').replace(COMBINING_MARK, '').replace(INVISIBLE, '');
  let folded = '';
  for (const char of plain) folded += AMBIGUOUS[char]?.[variant] ?? LOOK_ALIKES[char] ?? LEET[char] ?? char;
  return folded;
}

/**
 * Words of the folded text. Runs of single characters are joined back into a word, so
 * "P l a c e  o-r-d-e-r" reads as "placeorder" (which the table knows as "place order").
 */
function wordsOf(text: string, variant: Variant): string[] {
  const parts = foldCharacters(text, variant).split(/[^\p{L}\p{N}]+/u).filter(Boolean);
  const words: string[] = [];
  let run = '';
  for (const part of parts) {
    if ([...part].length === 1) {
      run += part;
      continue;
    }
    if (run) words.push(run);
    run = '';
    words.push(part);
  }
  if (run) words.push(run);
  return words;
}

/** "\u202Eredro ecalp" displays as "place order": read what the user sees. */
function asDisplayed(text: string): string {
  return text.replace(RIGHT_TO_LEFT_OVERRIDE, (_, hidden: string) => [...hidden].reverse().join(''));
}

// ---------------------------------------------------------------------------------------------
// Matching.

type Kind = 'critical' | 'harmless' | 'confirm';
const KINDS: readonly Kind[] = ['critical', 'harmless', 'confirm'];

interface Matcher {
  /** Phrases of spaced scripts with their spaces removed, so "check out" finds "checkout". */
  words: Map<string, Set<Kind>>;
  /** Chinese and Japanese phrases, matched as substrings. */
  substrings: { text: string; kind: Kind }[];
}

/** A stretch of the text's letters, as offsets into its words joined without spaces. */
interface Span {
  start: number;
  end: number;
}

const CJK = /[\p{Script=Han}\p{Script=Hiragana}\p{Script=Katakana}]/u;
/** The longest phrase, in words, plus slack for words split by stray spaces ("Pl ace"). */
const MAX_PHRASE_WORDS = 8;

function buildMatcher(variant: Variant): Matcher {
  const matcher: Matcher = { words: new Map(), substrings: [] };
  for (const vocabulary of Object.values(VOCABULARY)) {
    for (const kind of KINDS) {
      for (const phrase of vocabulary[kind]) addPhrase(matcher, phrase, kind, variant);
    }
  }
  return matcher;
}

function addPhrase(matcher: Matcher, phrase: string, kind: Kind, variant: Variant): void {
  const joined = wordsOf(phrase, variant).join('');
  if (CJK.test(joined)) {
    matcher.substrings.push({ text: joined, kind });
    return;
  }
  const kinds = matcher.words.get(joined) ?? new Set<Kind>();
  kinds.add(kind);
  matcher.words.set(joined, kinds);
}

/**
 * Built on first use, not at load: folding every phrase costs ~10 ms, and the background loads on
 * every wake (a sidebar reconnecting, a search) while most wakes judge no step.
 */
let matchers: Record<Variant, Matcher> | undefined;
const matcherFor = (variant: Variant): Matcher => (matchers ??= { 0: buildMatcher(0), 1: buildMatcher(1) })[variant];

interface Reading {
  /** Total letters once the words are joined. */
  length: number;
  spans: Record<Kind, Span[]>;
}

function read(words: readonly string[], matcher: Matcher): Reading {
  const spans: Record<Kind, Span[]> = { critical: [], harmless: [], confirm: [] };
  const offsets = [0];
  for (const word of words) offsets.push((offsets.at(-1) ?? 0) + word.length);
  for (let first = 0; first < words.length; first++) {
    let joined = '';
    for (let last = first; last < Math.min(words.length, first + MAX_PHRASE_WORDS); last++) {
      joined += words[last];
      for (const kind of matcher.words.get(joined) ?? []) spans[kind].push({ start: offsets[first] ?? 0, end: offsets[last + 1] ?? 0 });
    }
  }
  const stream = words.join('');
  for (const { text, kind } of matcher.substrings) spans[kind].push(...occurrences(stream, text));
  return { length: stream.length, spans };
}

function occurrences(stream: string, text: string): Span[] {
  const found: Span[] = [];
  for (let at = stream.indexOf(text); at !== -1; at = stream.indexOf(text, at + 1)) found.push({ start: at, end: at + text.length });
  return found;
}

function within(inner: Span, outer: Span): boolean {
  return outer.start <= inner.start && inner.end <= outer.end;
}

/** A critical phrase counts unless it only appears inside a harmless one ("order" in "sort order"). */
function saysCritical(reading: Reading): boolean {
  return reading.spans.critical.some((span) => !reading.spans.harmless.some((harmless) => within(span, harmless)));
}

/** Nothing but confirm words (or no words at all: an icon-only button says nothing either). */
function saysOnlyConfirm(reading: Reading): boolean {
  const covered = new Array<boolean>(reading.length).fill(false);
  for (const span of reading.spans.confirm) covered.fill(true, span.start, span.end);
  return covered.every(Boolean);
}

function readings(buttonText: string): Reading[] {
  const texts = new Set([buttonText, asDisplayed(buttonText)]);
  return [...texts].flatMap((text) => VARIANTS.map((variant) => read(wordsOf(text, variant), matcherFor(variant))));
}

// ---------------------------------------------------------------------------------------------
// The page's URL.

const PAGE_EXTENSION = /\.(php|html?|aspx?|jsp|do|cgi)$/;
let criticalPaths: readonly string[][] | undefined;
const criticalPathsOnce = (): readonly string[][] =>
  (criticalPaths ??= Object.values(VOCABULARY).flatMap((vocabulary) => vocabulary.paths.map((path) => path.split('/').map(normaliseSegment))));

/** "Place_Order.php" and "place-order" are the same segment. */
function normaliseSegment(segment: string): string {
  let decoded = segment;
  try {
    decoded = decodeURIComponent(segment);
  } catch {
    // A stray "%" is kept as it is: the raw segment still compares fine.
  }
  return decoded.toLowerCase().replace(PAGE_EXTENSION, '').replace(/[\s_.+-]+/g, '-').replace(/^-|-$/g, '');
}

/**
 * The path, plus query values and the hash, since shops route through both
 * ("index.php?route=checkout/checkout", "#/checkout").
 */
function segmentsOf(url: string): string[] {
  let parsed: URL;
  try {
    parsed = new URL(url);
  } catch {
    return [];
  }
  const parts = [parsed.pathname, ...parsed.searchParams.values(), parsed.hash.replace(/^#!?/, '')];
  return parts.flatMap((part) => part.split(/[/?&=]/)).map(normaliseSegment).filter(Boolean);
}

function containsRun(segments: readonly string[], run: readonly string[]): boolean {
  for (let start = 0; start + run.length <= segments.length; start++) {
    if (run.every((segment, offset) => segments[start + offset] === segment)) return true;
  }
  return false;
}

function isCriticalPage(url: string): boolean {
  const segments = segmentsOf(url);
  return criticalPathsOnce().some((run) => containsRun(segments, run));
}

/**
 * True for actions that spend money, delete, send, transfer or subscribe, in English, French,
 * German, Spanish, Italian, Portuguese, Dutch, Russian, Arabic, Chinese and Japanese, however the
 * page disguises the words. On a checkout, payment, order, delete, transfer, subscribe or billing
 * page, a button that says nothing by itself ("Continue", "OK", an icon) is critical too.
 */
export function isCriticalAction(buttonText: string, url: string): boolean {
  const all = readings(buttonText);
  if (all.some(saysCritical)) return true;
  return isCriticalPage(url) && all.some(saysOnlyConfirm);
}
