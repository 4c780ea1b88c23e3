/** The element that hosts Jawad's mask in a page: snapshots and hit tests look through it. */
export const MASK_TAG = 'jawad-mask';
export const MASK_INSTALLED = '__jawadMask';
