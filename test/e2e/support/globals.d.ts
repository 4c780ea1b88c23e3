/** Code evaluated inside extension pages (the welcome page) uses the extension API global. */
declare const browser: import('webextension-polyfill').Browser;
