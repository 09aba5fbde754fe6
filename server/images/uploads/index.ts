// Uploaded images (ADR 077): what the desk and the Admin API store, and what pages and the
// /images/ route read.
export { MAX_UPLOAD_BYTES, MAX_UPLOAD_PIXELS, type UploadRefusal } from "./decode";
export { storedVariant, uploadedImage, variantBytes, type StoredVariant, type UploadedImage } from "./read";
export { storeUpload, UPLOAD_MESSAGES, type UploadResult } from "./store";
