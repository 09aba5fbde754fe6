// Promo codes and vouchers at the desk (ADR 091).
export {
  createPromo,
  getDeskPromo,
  listDeskPromos,
  promoUsesOf,
  savePromo,
  setPromoDisabled,
  type DeskPromo,
  type PromoListing,
} from "./promo-codes";
export { OFFER_STATE_NAMES, type OfferState, type OfferUse } from "./uses";
export {
  createVoucher,
  getDeskVoucher,
  listDeskVouchers,
  saveVoucher,
  setVoucherDisabled,
  voucherItems,
  voucherUsesOf,
  type DeskVoucher,
  type VoucherItem,
  type VoucherListing,
} from "./vouchers";
