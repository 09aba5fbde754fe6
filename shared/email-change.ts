/** How long a link to confirm a new e-mail address works. */
export const EMAIL_LINK_HOURS = 24;
