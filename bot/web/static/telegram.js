// The page's Telegram platform layer. Telegram's own script (telegram-web-app.js) reads the
// launch data from the address's fragment once, when it runs: startTelegram() resolves only
// after it has run, and the page may clear the fragment only then. Every call is
// feature-detected with isVersionAtLeast (an older Telegram refuses newer calls) and none
// can throw. Outside Telegram (a browser, Discord) browserPlatform() stands in, and the
// page's CSS falls back to 100dvh and env(safe-area-inset-*).
//
// The platform object, the same shape everywhere:
//   inside, platform, version, dark (a getter: follows themeChanged),
//   haptic(kind): "turn" | "illegal" | "trick" | "tap",
//   setBack(handler | null): Telegram's back button calls handler; null hides it,
//   confirmClose(on): Telegram asks before closing while on,
//   onActivated(fn): fn when the Mini App comes back to the foreground.
// Inside Telegram the root element gets the class "telegram", data-scheme (light | dark),
// and --sahra-height (the stable viewport height) and --sahra-inset-{top,right,bottom,left}
// (safe area plus content safe area), kept up to date.

export const FELT = "#0b3d2e";
const SCRIPT = "https://telegram.org/js/telegram-web-app.js";
const WAIT_MS = 4000;
const PHONES = new Set(["android", "ios"]); // on desktop requestFullscreen can fail
const SIDES = ["top", "right", "bottom", "left"];
// The version that brought each call (core.telegram.org/bots/webapps).
const SINCE = {
  back: "6.1",
  haptic: "6.1",
  background: "6.1",
  closing: "6.2",
  header: "6.9", // any colour; from 6.1 to 6.8 only a theme key, and a colour throws
  swipes: "7.7",
  fullscreen: "8.0",
  insets: "8.0",
};
const HAPTICS = {
  turn: (feedback) => feedback.impactOccurred("medium"),
  illegal: (feedback) => feedback.notificationOccurred("error"),
  trick: (feedback) => feedback.notificationOccurred("success"),
  tap: (feedback) => feedback.selectionChanged(),
};

export function telegramLaunch() {
  return Boolean(new URLSearchParams(location.hash.slice(1)).get("tgWebAppData"));
}

export function browserPlatform() {
  return {
    inside: false,
    platform: "web",
    version: "",
    get dark() {
      return Boolean(window.matchMedia && window.matchMedia("(prefers-color-scheme: dark)").matches);
    },
    haptic(kind) {
      // Only after the person has touched the page: before that the browser refuses it.
      const touched = !navigator.userActivation || navigator.userActivation.hasBeenActive;
      if (kind !== "tap" && touched && navigator.vibrate) navigator.vibrate(kind === "illegal" ? [20, 40, 20] : 15);
    },
    setBack() {},
    confirmClose() {},
    onActivated() {},
  };
}

// Inside Telegram, but its script never ran (blocked, unreachable): nothing to call.
function silentPlatform() {
  return {
    inside: false,
    platform: "",
    version: "",
    dark: false,
    haptic() {},
    setBack() {},
    confirmClose() {},
    onActivated() {},
  };
}

let starting = null;

// Once per page: a second call gets the same platform (the script runs once).
export function startTelegram() {
  if (!starting) {
    starting = loadScript()
      .then((app) => (app ? start(app) : silentPlatform()))
      .catch((error) => {
        console.warn("Telegram WebApp:", error);
        return silentPlatform();
      });
  }
  return starting;
}

function webApp() {
  return (window.Telegram && window.Telegram.WebApp) || null;
}

// Telegram's script, added to the page; resolves to its WebApp once the script has run
// (its load event), or to null after an error or WAIT_MS.
function loadScript() {
  return new Promise((resolve) => {
    const present = webApp(); // already in the page (a <script> in <head>): it has run
    if (present) {
      resolve(present);
      return;
    }
    const script = document.createElement("script");
    script.src = SCRIPT;
    const done = (app) => {
      clearTimeout(timer);
      resolve(app);
    };
    const timer = setTimeout(() => done(null), WAIT_MS);
    script.addEventListener("load", () => done(webApp()), { once: true });
    script.addEventListener("error", () => done(null), { once: true });
    document.head.append(script);
  });
}

function safely(call) {
  try {
    return call();
  } catch (error) {
    console.warn("Telegram WebApp:", error);
    return undefined;
  }
}

function start(app) {
  const at = (version) =>
    typeof app.isVersionAtLeast === "function" && Boolean(safely(() => app.isVersionAtLeast(version)));
  const root = document.documentElement;
  root.classList.add("telegram");
  const scheme = () => {
    root.dataset.scheme = app.colorScheme === "dark" ? "dark" : "light";
  };
  scheme();
  safely(() => app.ready());
  safely(() => app.expand());
  if (at(SINCE.swipes)) safely(() => app.disableVerticalSwipes());
  if (at(SINCE.fullscreen) && PHONES.has(app.platform)) safely(() => app.requestFullscreen());
  if (at(SINCE.header)) safely(() => app.setHeaderColor(FELT));
  if (at(SINCE.background)) safely(() => app.setBackgroundColor(FELT));
  watchViewport(app, at, root);
  const on = (event, handler) => safely(() => app.onEvent(event, handler));
  on("themeChanged", scheme);

  let back = null; // the handler Telegram's back button calls now
  let closing = null; // the closing confirmation last asked for
  return {
    inside: true,
    platform: String(app.platform || ""),
    version: String(app.version || ""),
    get dark() {
      return app.colorScheme === "dark";
    },
    haptic(kind) {
      const buzz = HAPTICS[kind];
      if (!buzz || !at(SINCE.haptic) || !app.HapticFeedback) return;
      safely(() => buzz(app.HapticFeedback));
    },
    setBack(handler) {
      if (!at(SINCE.back) || !app.BackButton) return;
      safely(() => {
        if (back) app.BackButton.offClick(back);
        back = null;
        if (handler) {
          back = () => handler();
          app.BackButton.onClick(back);
          app.BackButton.show();
        } else {
          app.BackButton.hide();
        }
      });
    },
    confirmClose(on) {
      const want = Boolean(on);
      if (want === closing || !at(SINCE.closing)) return; // Telegram is told each change once
      closing = want;
      safely(() => (want ? app.enableClosingConfirmation() : app.disableClosingConfirmation()));
    },
    onActivated(handler) {
      on("activated", handler);
    },
  };
}

// --sahra-height and --sahra-inset-* on the root element, from Telegram's numbers.
function watchViewport(app, at, root) {
  const set = (name, px) => root.style.setProperty(name, `${px}px`);
  const number = (value) => (Number.isFinite(Number(value)) ? Number(value) : 0);
  let first = true;
  // The stable height only: viewportHeight moves during the sheet's drag animation.
  const height = (stable) => {
    if (!stable && !first) return;
    first = false;
    const px = number(safely(() => app.viewportStableHeight));
    if (px > 0) set("--sahra-height", px);
  };
  const insets = () => {
    if (!at(SINCE.insets)) return;
    const safe = app.safeAreaInset || {};
    const content = app.contentSafeAreaInset || {};
    for (const side of SIDES) set(`--sahra-inset-${side}`, number(safe[side]) + number(content[side]));
  };
  height(true);
  insets();
  const on = (event, handler) => safely(() => app.onEvent(event, handler));
  on("viewportChanged", (event) => height(Boolean(event && event.isStateStable)));
  on("safeAreaChanged", insets);
  on("contentSafeAreaChanged", insets);
  on("fullscreenChanged", insets);
}
