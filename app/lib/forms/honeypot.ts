/** A field no person fills in (hidden from sight and from assistive technology); bots do. */
export const HONEYPOT_FIELD = "website";
