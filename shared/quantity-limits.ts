/**
 * The most copies of one shipped item, or permissions for one item, a cart line may hold. A
 * module of its own so the browser's form schemas can read the limits without the database code.
 */
export const MAX_SHIP_QUANTITY = 999;
export const MAX_PERM_QUANTITY = 10_000;
