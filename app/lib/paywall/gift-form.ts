import { z } from "zod";
import { requiredText } from "~/app/lib/forms/validation";

/** The gift form: the article to gift, by its path (/2025/06/some-slug) or its address on this site. */
export const giftSchema = z.object({ url: requiredText(2048) });
