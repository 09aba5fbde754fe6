import { describe, expect, it } from "vitest";
import { isAccountFormPage, MODAL_SCREENS, MODAL_TITLES, modalScreen, screenForPath } from "~/app/lib/accounts/modal-screens";

describe("sign-in modal screens", () => {
  it("opens on registration by default", () => {
    expect(modalScreen()).toBe("registration");
    expect(modalScreen(undefined)).toBe("registration");
    expect(modalScreen("")).toBe("registration");
  });

  it("opens on the requested screen when it is valid", () => {
    expect(modalScreen("sign-in")).toBe("sign-in");
    expect(modalScreen("registration")).toBe("registration");
    expect(modalScreen("forgot-password")).toBe("forgot-password");
    expect(modalScreen("profile_settings")).toBe("profile_settings");
  });

  it("throws for a screen it does not have, naming it", () => {
    expect(() => modalScreen("foo")).toThrow(new Error('"foo" is not a valid screen'));
    expect(() => modalScreen("Sign-In")).toThrow(/"Sign-In" is not a valid screen/);
    expect(() => modalScreen("profile-settings")).toThrow(/is not a valid screen/);
    expect(() => modalScreen("toString")).toThrow(/is not a valid screen/);
  });

  it("titles every screen as the spec words it", () => {
    expect(MODAL_TITLES).toEqual({
      "sign-in": "Sign in to your account",
      registration: "Create an account",
      "forgot-password": "Reset your password",
      profile_settings: "Profile settings",
    });
    expect(Object.keys(MODAL_TITLES).sort()).toEqual([...MODAL_SCREENS].sort());
  });

  it("maps the account pages' links to screens", () => {
    expect(screenForPath("/sign-in")).toBe("sign-in");
    expect(screenForPath("/register")).toBe("registration");
    expect(screenForPath("/register/")).toBe("registration");
    expect(screenForPath("/forgot-password")).toBe("forgot-password");
    expect(screenForPath("/my-account")).toBeUndefined();
    expect(screenForPath("/sign-in-help")).toBeUndefined();
    expect(screenForPath("/constructor")).toBeUndefined();
    expect(screenForPath("/")).toBeUndefined();
  });

  it("knows the pages that carry an account form of their own", () => {
    expect(isAccountFormPage("/sign-in")).toBe(true);
    expect(isAccountFormPage("/my-account/")).toBe(true);
    expect(isAccountFormPage("/topics")).toBe(false);
    expect(isAccountFormPage("/")).toBe(false);
  });
});
