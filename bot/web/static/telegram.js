// The page inside Telegram: Telegram's own script, loaded before anything reads or clears
// the address's fragment (it reads the launch data there once, when it runs).

export const FELT = "#0b3d2e";
const SCRIPT = "https://telegram.org/js/telegram-web-app.js";

export function telegramLaunch() {
  return new URLSearchParams(location.hash.slice(1)).has("tgWebAppData");
}

const quiet = {
  inside: false,
  platform: "web",
  version: "",
  dark: false,
  haptic(kind) {
    // Only after the person has touched the page: before that the browser refuses it.
    const touched = !navigator.userActivation || navigator.userActivation.hasBeenActive;
    if (kind !== "tap" && touched && navigator.vibrate) navigator.vibrate(kind === "illegal" ? [20, 40, 20] : 15);
  },
  setBack() {},
  confirmClose() {},
  onActivated() {},
};

export function browserPlatform() {
  return { ...quiet };
}

export function startTelegram() {
  return new Promise((resolve) => {
    const script = document.createElement("script");
    script.src = SCRIPT;
    const done = () => resolve(wrap(window.Telegram && window.Telegram.WebApp));
    const timer = setTimeout(done, 4000);
    script.addEventListener("load", () => {
      clearTimeout(timer);
      done();
    });
    script.addEventListener("error", () => {
      clearTimeout(timer);
      done();
    });
    document.head.append(script);
  });
}

function wrap(app) {
  if (!app) return browserPlatform();
  const at = (version) => typeof app.isVersionAtLeast === "function" && app.isVersionAtLeast(version);
  const safely = (call) => {
    try {
      call();
    } catch (error) {
      console.warn("Telegram WebApp:", error);
    }
  };
  document.documentElement.classList.add("telegram");
  safely(() => app.ready());
  safely(() => app.expand());
  let back = null;
  return {
    inside: true,
    platform: app.platform || "",
    version: app.version || "",
    dark: app.colorScheme === "dark",
    haptic(kind) {
      if (!at("6.1") || !app.HapticFeedback) return;
      safely(() => {
        if (kind === "turn") app.HapticFeedback.impactOccurred("medium");
        else if (kind === "illegal") app.HapticFeedback.notificationOccurred("error");
        else if (kind === "trick") app.HapticFeedback.notificationOccurred("success");
        else app.HapticFeedback.selectionChanged();
      });
    },
    setBack(handler) {
      if (!at("6.1") || !app.BackButton) return;
      safely(() => {
        if (back) app.BackButton.offClick(back);
        back = handler;
        if (handler) {
          app.BackButton.onClick(handler);
          app.BackButton.show();
        } else {
          app.BackButton.hide();
        }
      });
    },
    confirmClose(on) {
      if (!at("6.2")) return;
      safely(() => (on ? app.enableClosingConfirmation() : app.disableClosingConfirmation()));
    },
    onActivated(handler) {
      safely(() => app.onEvent("activated", handler));
    },
  };
}
