import { lazy, type ComponentType } from "react";

type Loaded<Props> = { default: ComponentType<Props> };

const nothing: Loaded<never> = { default: () => null };

/**
 * A component that only enhances the page (a dialog, a flyout, a combobox), loaded in a chunk of
 * its own. If the chunk cannot be loaded (the network dropped, a release replaced it) the page
 * goes on without the enhancement instead of failing, as it works without JS. `preload` starts
 * the load early, for instance when the pointer reaches the control that opens it.
 */
export function lazyEnhancement<Props extends object>(load: () => Promise<Loaded<Props>>) {
  let loading: Promise<Loaded<Props>> | undefined;
  const preload = () => (loading ??= load().catch(() => nothing as Loaded<Props>));
  return Object.assign(lazy(preload), { preload });
}
