import { Link } from "@remix-run/react";
import { primaryButton } from "./controls.css";
import * as css from "./video.css";

/** In place of the player, for a subscriber-only video and a reader who does not subscribe. */
export function VideoWall({ poster, videoUrl, abTag, signedIn }: { poster: string; videoUrl: string; abTag: string; signedIn: boolean }) {
  return (
    <div className={`${css.player} ${css.stage}`}>
      <img className={css.poster} src={poster} alt="" width={1280} height={720} />
      <section className={css.overlay} aria-labelledby="video-wall-title" data-wall="video">
        <h2 id="video-wall-title" className={css.overlayTitle}>
          This video is for subscribers
        </h2>
        <p className={css.overlayText}>Subscribe to watch it, along with every other video, article and podcast, with no monthly limit.</p>
        <div className={css.overlayActions}>
          <Link className={primaryButton} to={`/subscriptions?ab=${encodeURIComponent(abTag)}`}>
            Subscribe
          </Link>
          {signedIn ? null : (
            <Link className={css.overlayLink} to={`/sign-in?redirectTo=${encodeURIComponent(videoUrl)}`}>
              Already a subscriber? Sign in
            </Link>
          )}
        </div>
      </section>
    </div>
  );
}
