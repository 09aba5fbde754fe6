import { useEffect, useRef } from "react";
import { useRootData } from "~/app/lib/http/root-data";

interface ReCaptcha {
  ready(callback: () => void): void;
  execute(siteKey: string, options: { action: string }): Promise<string>;
}

declare global {
  interface Window {
    grecaptcha?: ReCaptcha;
  }
}

let loading: Promise<ReCaptcha> | undefined;

function loadReCaptcha(scriptUrl: string, siteKey: string, nonce: string | undefined): Promise<ReCaptcha> {
  loading ??= new Promise((resolve, reject) => {
    const script = document.createElement("script");
    script.src = `${scriptUrl}?render=${encodeURIComponent(siteKey)}`;
    if (nonce) script.nonce = nonce;
    script.onload = () => window.grecaptcha?.ready(() => resolve(window.grecaptcha!));
    script.onerror = () => reject(new Error("reCAPTCHA did not load"));
    document.head.append(script);
  });
  return loading;
}

/**
 * The reCAPTCHA v3 token field, when the site has captcha on. With JS the token is fetched as
 * the form is sent; without JS the field stays empty and the server answers
 * "reCAPTCHA is required.".
 */
export function CaptchaToken({ action }: { action: string }) {
  const root = useRootData();
  const captcha = root?.captcha;
  const input = useRef<HTMLInputElement>(null);
  useEffect(() => {
    const form = input.current?.form;
    if (!captcha || !form) return;
    // Tokens are single-use: each submission fetches one, then lets the submission through.
    let tokenReady = false;
    const onSubmit = (event: SubmitEvent) => {
      if (tokenReady) {
        tokenReady = false;
        return;
      }
      event.preventDefault();
      event.stopImmediatePropagation();
      loadReCaptcha(captcha.scriptUrl, captcha.siteKey, document.querySelector<HTMLScriptElement>("script[nonce]")?.nonce)
        .then((recaptcha) => recaptcha.execute(captcha.siteKey, { action }))
        .then((token) => {
          if (input.current) input.current.value = token;
        })
        .catch(() => {
          if (input.current) input.current.value = "";
        })
        .finally(() => {
          tokenReady = true;
          form.requestSubmit(event.submitter as HTMLElement | null);
        });
    };
    form.addEventListener("submit", onSubmit, { capture: true });
    return () => form.removeEventListener("submit", onSubmit, { capture: true });
  }, [captcha, action]);
  if (!captcha) return null;
  return <input ref={input} type="hidden" name="reCaptchaToken" defaultValue="" />;
}
