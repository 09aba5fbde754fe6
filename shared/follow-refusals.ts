// Why a reader may not follow something: the action answers with these, and pages show them beside the target.

export const SUBSCRIBER_ONLY_TOPIC = "This topic is for subscribers. Subscribe to follow it.";
export const EXECUTIVE_ONLY_TOPIC = "This topic is for Executive subscribers only.";
export const SUBSCRIBER_ONLY_NEWSLETTER = "This newsletter is for subscribers. Subscribe to receive it.";

/** The target named does not exist (or its name is not one a target can have). */
export const UNKNOWN_FOLLOW_TARGET = "We could not find what you asked to follow.";
