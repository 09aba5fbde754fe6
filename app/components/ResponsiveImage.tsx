import { imageLoading } from "~/app/lib/content/image-loading";
import { imageSources, type ImageRef } from "~/shared/uploaded-images";

/**
 * An uploaded image (ADR 077) as a <picture>: AVIF, then WebP, then a JPEG every browser shows,
 * each at every width kept, so the browser picks by `sizes` (how wide the image is laid out).
 * The <img> states the image's size, so the page keeps its place before it loads.
 */
export function ResponsiveImage({
  image,
  sizes,
  largest = false,
  className,
}: {
  image: ImageRef;
  /** The `sizes` attribute, e.g. "(min-width: 60rem) 40rem, 100vw". */
  sizes: string;
  /** The page's largest image, loaded first (imageLoading). */
  largest?: boolean;
  className?: string;
}) {
  const { sources, img } = imageSources(image);
  return (
    <picture>
      {sources.map((source) => (
        <source key={source.type} type={source.type} srcSet={source.srcSet} sizes={sizes} />
      ))}
      <img
        className={className}
        src={img.src}
        srcSet={img.srcSet}
        sizes={sizes}
        width={img.width}
        height={img.height}
        alt={img.alt}
        {...imageLoading(largest)}
      />
    </picture>
  );
}
