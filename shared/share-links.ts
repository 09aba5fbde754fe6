// Where each social network takes a page to share (no script of theirs is ever loaded here).

/** Addresses one e-mail share may go to. */
export const MAX_SHARE_RECIPIENTS = 10;

export const SOCIAL_NETWORKS = ["facebook", "twitter", "linkedin"] as const;
export type SocialNetwork = (typeof SOCIAL_NETWORKS)[number];

export const NETWORK_NAMES: Record<SocialNetwork | "email", string> = {
  facebook: "Facebook",
  twitter: "X",
  linkedin: "LinkedIn",
  email: "E-mail",
};

export function networkShareUrl(network: SocialNetwork, url: string, title: string): string {
  const u = encodeURIComponent(url);
  switch (network) {
    case "facebook":
      return `https://www.facebook.com/sharer/sharer.php?u=${u}`;
    case "twitter":
      return `https://x.com/intent/post?url=${u}&text=${encodeURIComponent(title)}`;
    case "linkedin":
      return `https://www.linkedin.com/sharing/share-offsite/?url=${u}`;
  }
}
