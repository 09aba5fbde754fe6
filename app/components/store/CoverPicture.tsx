import type { ImgHTMLAttributes } from "react";
import type { ImageSources } from "~/shared/uploaded-images";

/**
 * A product's uploaded cover (ADR 091), shown instead of the drawn one: a <picture> of the sources
 * the server worked out, so that no store page loads the code that works them out.
 */
export function CoverPicture({
  picture,
  alt,
  sizes,
  largest = false,
  className,
}: {
  picture: ImageSources;
  alt: string;
  sizes: string;
  /** The page's largest image: it loads first; any other waits until it nears the screen. */
  largest?: boolean;
  className?: string;
}) {
  // React 18 passes fetchpriority through only in lowercase.
  const loading = (
    largest ? { fetchpriority: "high", decoding: "async" } : { loading: "lazy", decoding: "async" }
  ) as ImgHTMLAttributes<HTMLImageElement>;
  return (
    <picture>
      {picture.sources.map((source) => (
        <source key={source.type} type={source.type} srcSet={source.srcSet} sizes={sizes} />
      ))}
      <img
        className={className}
        src={picture.img.src}
        srcSet={picture.img.srcSet}
        sizes={sizes}
        width={picture.img.width}
        height={picture.img.height}
        alt={alt}
        {...loading}
      />
    </picture>
  );
}
