import { describe, expect, it } from 'vitest';
import { isCriticalAction } from '../../../src/background/harbor/critical';

/** A page where nothing is committed by itself: only the button's words can make a step critical. */
const PRODUCT_PAGE = 'https://shop.test/product/42';

describe('isCriticalAction: the words on the button', () => {
  it.each([
    // English
    'Buy', 'Buy now', 'Purchase', 'Pay $49.99', 'Place order', 'Place your order', 'Order now', 'Checkout',
    'Proceed to checkout', 'Check out', 'Delete', 'Delete account', 'Remove my account', 'Close account', 'Send',
    'Send money', 'Transfer', 'Wire transfer', 'Subscribe', 'Donate', 'Confirm payment', 'Confirm your order',
    // French
    'Acheter maintenant', 'Payer', 'Passer la commande', 'Supprimer mon compte', 'Envoyer', 'Effectuer le virement',
    "S'abonner", 'Faire un don', 'Confirmer le paiement',
    // German
    'Jetzt kaufen', 'Zahlungspflichtig bestellen', 'Zur Kasse', 'Löschen', 'Überweisen', 'Abonnieren', 'Spenden',
    'Zahlung bestätigen',
    // Spanish
    'Comprar ahora', 'Realizar pedido', 'Finalizar compra', 'Eliminar cuenta', 'Suscribirse', 'Donar', 'Confirmar pago',
    // Italian
    'Acquista ora', 'Conferma ordine', 'Elimina', 'Invia', 'Bonifico', 'Abbonati', 'Conferma pagamento',
    // Portuguese
    'Comprar agora', 'Finalizar pedido', 'Excluir conta', 'Transferir', 'Assine já', 'Doar', 'Confirmar pagamento',
    // Dutch
    'Nu kopen', 'Afrekenen', 'Bestelling plaatsen', 'Verwijderen', 'Overmaken', 'Doneren', 'Betaling bevestigen',
    // Russian
    'Купить', 'Оформить заказ', 'Оплатить', 'Удалить аккаунт', 'Отправить', 'Перевести деньги', 'Подписаться',
    'Пожертвовать', 'Подтвердить оплату',
    // Arabic
    'اشتر الآن', 'ادفع', 'إتمام الطلب', 'حذف الحساب', 'إرسال', 'تحويل', 'اشترك', 'تبرع', 'تأكيد الدفع',
    // Chinese (simplified and traditional)
    '立即购买', '提交订单', '去结算', '删除', '发送', '转账', '订阅', '捐款', '确认支付', '刪除', '確認付款',
    // Japanese
    '今すぐ購入', '注文を確定する', 'レジに進む', '削除', '送信', '送金', '定期購読', '寄付する', '支払いを確定',
  ])('"%s" is critical', (text) => {
    expect(isCriticalAction(text, PRODUCT_PAGE)).toBe(true);
  });

  it.each([
    ['Вuу nоw', 'Cyrillic В, у, о'],
    ['Рау', 'Cyrillic Р, а, у'],
    ['Dеlеtе', 'Cyrillic е'],
    ['ѕubѕcribe', 'Cyrillic ѕ'],
    ['ԁonate', 'Cyrillic ԁ'],
    ['Ρаy', 'Greek Ρ with Cyrillic а'],
    ['SEΝD', 'Greek capital Nu'],
    ['ΒUΥ', 'Greek capital Beta and Upsilon'],
    ['ＢＵＹ　ＮＯＷ', 'fullwidth letters and space'],
    ['𝐁𝐮𝐲 𝐧𝐨𝐰', 'mathematical bold'],
    ['Ⓑⓤⓨ', 'circled letters'],
    ['B\u200Buy', 'a zero-width space'],
    ['Che\u200Dck\uFEFFout', 'a zero-width joiner and a BOM'],
    ['De\u00ADlete', 'a soft hyphen'],
    ['Pa\u0301y', 'a combining accent'],
    ['Ch3ck0ut', 'leetspeak digits'],
    ['P4Y N0W', 'leetspeak capitals'],
    ['De1ete', '1 for l'],
    ['Subscr1be', '1 for i'],
    ['$end', '$ for s'],
    ['Tr@nsfer', '@ for a'],
    ['7ransfer', '7 for t'],
    ['P l a c e  o-r-d-e-r', 'spaced and hyphenated letters'],
    ['C h e c k o u t', 'spaced letters'],
    ['Check_out', 'an underscore'],
    ['Pl ace Or der', 'stray spaces inside words'],
    ['PlaceOrder', 'camel case'],
    ['CHECKOUT', 'capitals'],
    ['КУПИТЬ', 'Russian in capitals'],
    ['ادفــــع', 'Arabic stretched with tatweel'],
    ['اُدْفُعْ', 'Arabic with vowel marks'],
    ['أرسل', 'Arabic with hamza'],
    ['\u202Eredro ecalp', 'a right-to-left override that displays "place order"'],
  ])('"%s" is critical (%s)', (text) => {
    expect(isCriticalAction(text, PRODUCT_PAGE)).toBe(true);
  });

  it.each([
    'Order by price', 'Sort order', 'Sort order: newest first', 'Sender', 'Sender name', 'Payment methods we accept',
    'Add to cart', 'Add to basket', 'Order history', 'Track your order', 'Orders', 'Purchase history', 'Deleted items',
    'Subscribers', 'Buyer protection', 'PayPal', 'Payments', 'How to buy', 'In order to continue, sign in', 'Checkbox',
    'Wireless headphones', 'Reorder columns', 'Read more', 'Sign in', 'Search', 'Continue', 'Next', 'OK',
    '注文履歴', '購入履歴', '支付方式', '支付宝', 'Trier par prix', 'Mes commandes', 'Bestellungen',
    'Historial de pedidos', 'История заказов', 'طرق الدفع', 'Zahlen und Fakten',
  ])('"%s" is not critical on a product page', (text) => {
    expect(isCriticalAction(text, PRODUCT_PAGE)).toBe(false);
  });
});

describe('isCriticalAction: the page it happens on', () => {
  it.each([
    ['Continue', 'https://shop.test/checkout'],
    ['Confirm', 'https://shop.test/cart/checkout'],
    ['OK', 'https://bank.test/transfer'],
    ['Next', 'https://shop.test/payment'],
    ['Yes', 'https://app.test/account/close'],
    ["Yes, I'm sure", 'https://app.test/account/delete'],
    ['Submit', 'https://news.test/subscribe'],
    ['Save', 'https://app.test/settings/billing'],
    ['OK', 'https://shop.test/orders/place'],
    ['Continue', 'https://shop.test/checkout.php'],
    ['Continue', 'https://shop.test/place_order'],
    ['Continue', 'https://shop.test/index.php?route=checkout/checkout'],
    ['Confirm', 'https://app.test/#/billing'],
    ['Weiter', 'https://shop.test/kasse'],
    ['Continuer', 'https://shop.test/paiement'],
    ['Далее', 'https://shop.test/checkout'],
    ['確認', 'https://shop.test/checkout'],
    ['', 'https://shop.test/checkout'],
  ])('"%s" is critical on %s', (text, url) => {
    expect(isCriticalAction(text, url)).toBe(true);
  });

  it.each([
    ['Continue', 'https://shop.test/product/42'],
    ['View order', 'https://shop.test/account/orders'],
    ['Next', 'https://shop.test/orders'],
    ['OK', 'https://shop.test/orders/12345'],
    ['', 'https://shop.test/order-history'],
    ['Continue to shipping', 'https://shop.test/checkout'],
    ['Apply coupon', 'https://shop.test/checkout'],
    ['Back to cart', 'https://shop.test/cart/checkout'],
    ['Continue', 'https://shop.test/paypal-info'],
    ['Continue', 'not a url'],
  ])('"%s" is not critical on %s', (text, url) => {
    expect(isCriticalAction(text, url)).toBe(false);
  });

  it('opening a checkout URL with no button is critical, opening the order history is not', () => {
    expect(isCriticalAction('', 'https://shop.test/checkout?step=payment')).toBe(true);
    expect(isCriticalAction('', 'https://shop.test/account/orders')).toBe(false);
  });

  it('a critical button is critical on any page', () => {
    expect(isCriticalAction('Delete', 'https://mail.test/inbox')).toBe(true);
    expect(isCriticalAction('Buy now', '')).toBe(true);
  });
});
