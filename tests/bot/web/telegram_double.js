// A faithful double of Telegram's telegram-web-app.js for the browser tests (telegram.org is
// unreachable offline; the real script carries no licence, so it is not copied here).
// It follows telegram-web-app.js as of Bot API 8.0 (fullscreen, safe areas, vertical swipes),
// checked against TelegramMessenger/TGMiniAppsJsSDK (Bot API 7.0) for the parts they share:
//   - it reads location.hash ONCE, when it runs, and parses it as the real one does
//     (tgWebAppData, tgWebAppVersion, tgWebAppPlatform, tgWebAppThemeParams), merged with the
//     launch parameters an earlier run in this tab kept in sessionStorage; a page that clears
//     the fragment before this runs gets version "6.0" and no initData, as in Telegram;
//   - a call newer than the launch's version is refused the way the real one refuses it:
//     BackButton, HapticFeedback, setHeaderColor, setBackgroundColor (6.1), closing
//     confirmation (6.2) and vertical swipes (7.7) warn and do nothing; requestFullscreen
//     (8.0) logs an error and throws WebAppMethodUnsupported; setHeaderColor with a colour
//     under 6.9 and invalid haptic styles throw, as there;
//   - it keeps the --tg-* CSS variables (viewport, safe areas, theme) on the root element.
// For the tests: window.__telegramLoad (what it read when it ran), window.__telegramCalls
// (every API call: {name, args, refused: null | "warn" | "throw"}), window.__telegramPosted
// (every event posted to the app: {eventType, eventData}) and window.__telegramEmit(type,
// data), the app's side: Telegram.WebView.receiveEvent ("viewport_changed" {height,
// is_state_stable, is_expanded}, "safe_area_changed" / "content_safe_area_changed" {top,
// bottom, left, right}, "fullscreen_changed" {is_fullscreen}, "back_button_pressed",
// "theme_changed" {theme_params}, "visibility_changed" {is_visible}).
(function () {
  "use strict";

  var calls = (window.__telegramCalls = window.__telegramCalls || []);
  var posted = (window.__telegramPosted = window.__telegramPosted || []);
  var current = null; // the call being made, marked if refused

  // ------------------------------------------------------------------ the WebView

  var locationHash = "";
  try {
    locationHash = location.hash.toString();
  } catch (e) {}

  function urlSafeDecode(urlencoded) {
    try {
      return decodeURIComponent(urlencoded.replace(/\+/g, "%20"));
    } catch (e) {
      return urlencoded;
    }
  }

  function urlParseQueryString(queryString) {
    var params = {};
    if (!queryString.length) return params;
    var pairs = queryString.split("&");
    for (var i = 0; i < pairs.length; i++) {
      var pair = pairs[i].split("=");
      params[urlSafeDecode(pair[0])] = pair[1] == null ? null : urlSafeDecode(pair[1]);
    }
    return params;
  }

  function urlParseHashParams(hash) {
    hash = hash.replace(/^#/, "");
    var params = {};
    if (!hash.length) return params;
    if (hash.indexOf("=") < 0 && hash.indexOf("?") < 0) {
      params._path = urlSafeDecode(hash);
      return params;
    }
    var qIndex = hash.indexOf("?");
    if (qIndex >= 0) {
      params._path = urlSafeDecode(hash.substr(0, qIndex));
      hash = hash.substr(qIndex + 1);
    }
    var query = urlParseQueryString(hash);
    for (var k in query) params[k] = query[k];
    return params;
  }

  function sessionStorageSet(key, value) {
    try {
      window.sessionStorage.setItem("__telegram__" + key, JSON.stringify(value));
      return true;
    } catch (e) {}
    return false;
  }

  function sessionStorageGet(key) {
    try {
      return JSON.parse(window.sessionStorage.getItem("__telegram__" + key));
    } catch (e) {}
    return null;
  }

  var initParams = urlParseHashParams(locationHash);
  var storedParams = sessionStorageGet("initParams");
  if (storedParams) {
    for (var stored in storedParams) {
      if (typeof initParams[stored] === "undefined") initParams[stored] = storedParams[stored];
    }
  }
  sessionStorageSet("initParams", initParams);

  var eventHandlers = {};

  function postEvent(eventType, callback, eventData) {
    if (!callback) callback = function () {};
    if (eventData === undefined) eventData = "";
    console.log("[Telegram.WebView] > postEvent", eventType, eventData);
    posted.push({ eventType: eventType, eventData: eventData });
    if (window.TelegramWebviewProxy !== undefined) {
      window.TelegramWebviewProxy.postEvent(eventType, JSON.stringify(eventData));
      callback();
    } else {
      callback({ notAvailable: true });
    }
  }

  function callEventCallbacks(eventType, func) {
    var handlers = eventHandlers[eventType];
    if (handlers === undefined || !handlers.length) return;
    for (var i = 0; i < handlers.length; i++) {
      try {
        func(handlers[i]);
      } catch (e) {}
    }
  }

  function receiveEvent(eventType, eventData) {
    console.log("[Telegram.WebView] < receiveEvent", eventType, eventData);
    callEventCallbacks(eventType, function (callback) {
      callback(eventType, eventData);
    });
  }

  function onEvent(eventType, callback) {
    if (eventHandlers[eventType] === undefined) eventHandlers[eventType] = [];
    if (eventHandlers[eventType].indexOf(callback) === -1) eventHandlers[eventType].push(callback);
  }

  function offEvent(eventType, callback) {
    if (eventHandlers[eventType] === undefined) return;
    var index = eventHandlers[eventType].indexOf(callback);
    if (index !== -1) eventHandlers[eventType].splice(index, 1);
  }

  if (!window.Telegram) window.Telegram = {};
  window.Telegram.WebView = {
    initParams: initParams,
    isIframe: false,
    onEvent: onEvent,
    offEvent: offEvent,
    postEvent: postEvent,
    receiveEvent: receiveEvent,
    callEventCallbacks: callEventCallbacks,
  };
  window.Telegram.Utils = {
    urlSafeDecode: urlSafeDecode,
    urlParseQueryString: urlParseQueryString,
    urlParseHashParams: urlParseHashParams,
    sessionStorageSet: sessionStorageSet,
    sessionStorageGet: sessionStorageGet,
  };
  window.TelegramGameProxy_receiveEvent = receiveEvent;
  window.TelegramGameProxy = { receiveEvent: receiveEvent };

  // ------------------------------------------------------------------ the WebApp

  var WebApp = {};
  var webAppInitData = "",
    webAppInitDataUnsafe = {};
  var themeParams = {},
    colorScheme = "light";
  var webAppVersion = "6.0";
  var webAppPlatform = "unknown";
  var webAppIsActive = true;
  var webAppIsFullscreen = false;

  if (initParams.tgWebAppData && initParams.tgWebAppData.length) {
    webAppInitData = initParams.tgWebAppData;
    webAppInitDataUnsafe = urlParseQueryString(webAppInitData);
    for (var key in webAppInitDataUnsafe) {
      var val = webAppInitDataUnsafe[key];
      try {
        if (
          (val.substr(0, 1) == "{" && val.substr(-1) == "}") ||
          (val.substr(0, 1) == "[" && val.substr(-1) == "]")
        ) {
          webAppInitDataUnsafe[key] = JSON.parse(val);
        }
      } catch (e) {}
    }
  }
  var storedThemeParams = sessionStorageGet("themeParams");
  if (initParams.tgWebAppThemeParams && initParams.tgWebAppThemeParams.length) {
    try {
      var parsedTheme = JSON.parse(initParams.tgWebAppThemeParams);
      if (parsedTheme) setThemeParams(parsedTheme);
    } catch (e) {}
  }
  if (storedThemeParams) setThemeParams(storedThemeParams);
  if (initParams.tgWebAppVersion) webAppVersion = initParams.tgWebAppVersion;
  if (initParams.tgWebAppPlatform) webAppPlatform = initParams.tgWebAppPlatform;
  if (initParams.tgWebAppFullscreen) webAppIsFullscreen = true;

  window.__telegramLoad = {
    hash: locationHash, // what location.hash was when this script ran
    initData: webAppInitData,
    version: webAppVersion,
    platform: webAppPlatform,
  };

  // Every API call is recorded; a refusal marks it.
  function api(name, body) {
    return function () {
      var args = Array.prototype.slice.call(arguments);
      var record = { name: name, args: snapshot(args), refused: null };
      calls.push(record);
      var outer = current;
      current = record;
      try {
        return body.apply(this, args);
      } catch (e) {
        record.refused = record.refused || "throw";
        throw e;
      } finally {
        current = outer;
      }
    };
  }

  function snapshot(args) {
    try {
      return JSON.parse(
        JSON.stringify(args, function (key, value) {
          return typeof value === "function" ? "[function]" : value;
        })
      );
    } catch (e) {
      return args.map(String);
    }
  }

  function warnRefusal(message) {
    if (current) current.refused = "warn";
    console.warn("[Telegram.WebApp] " + message + " is not supported in version " + webAppVersion);
  }

  function throwRefusal(method) {
    if (current) current.refused = "throw";
    console.error("[Telegram.WebApp] Method " + method + " is not supported in version " + webAppVersion);
    throw Error("WebAppMethodUnsupported");
  }

  function versionCompare(v1, v2) {
    if (typeof v1 !== "string") v1 = "";
    if (typeof v2 !== "string") v2 = "";
    v1 = v1.replace(/^\s+|\s+$/g, "").split(".");
    v2 = v2.replace(/^\s+|\s+$/g, "").split(".");
    var a = Math.max(v1.length, v2.length);
    for (var i = 0; i < a; i++) {
      var p1 = parseInt(v1[i]) || 0;
      var p2 = parseInt(v2[i]) || 0;
      if (p1 == p2) continue;
      return p1 > p2 ? 1 : -1;
    }
    return 0;
  }

  function versionAtLeast(ver) {
    return versionCompare(webAppVersion, ver) >= 0;
  }

  function receiveWebViewEvent(eventType) {
    var args = Array.prototype.slice.call(arguments, 1);
    callEventCallbacks("webview:" + eventType, function (callback) {
      callback.apply(WebApp, args);
    });
  }

  function setCssProperty(name, value) {
    var root = document.documentElement;
    if (root && root.style && root.style.setProperty) root.style.setProperty("--tg-" + name, value);
  }

  function parseColorToHex(color) {
    color += "";
    var match;
    if ((match = /^\s*#([0-9a-f]{6})\s*$/i.exec(color))) return "#" + match[1].toLowerCase();
    if ((match = /^\s*#([0-9a-f])([0-9a-f])([0-9a-f])\s*$/i.exec(color))) {
      return ("#" + match[1] + match[1] + match[2] + match[2] + match[3] + match[3]).toLowerCase();
    }
    if ((match = /^\s*rgba?\((\d+),\s*(\d+),\s*(\d+)(?:,\s*(\d+\.{0,1}\d*))?\)\s*$/.exec(color))) {
      var hex = "#";
      for (var i = 1; i <= 3; i++) {
        var part = parseInt(match[i]);
        hex += (part < 16 ? "0" : "") + part.toString(16);
      }
      return hex;
    }
    return false;
  }

  function isColorDark(rgb) {
    rgb = rgb.replace(/[\s#]/g, "");
    if (rgb.length == 3) rgb = rgb[0] + rgb[0] + rgb[1] + rgb[1] + rgb[2] + rgb[2];
    var r = parseInt(rgb.substr(0, 2), 16);
    var g = parseInt(rgb.substr(2, 2), 16);
    var b = parseInt(rgb.substr(4, 2), 16);
    return Math.sqrt(0.299 * (r * r) + 0.587 * (g * g) + 0.114 * (b * b)) < 120;
  }

  function setThemeParams(params) {
    var color;
    for (var name in params) {
      if ((color = parseColorToHex(params[name]))) {
        themeParams[name] = color;
        if (name == "bg_color") {
          colorScheme = isColorDark(color) ? "dark" : "light";
          setCssProperty("color-scheme", colorScheme);
        }
        setCssProperty("theme-" + name.split("_").join("-"), color);
      }
    }
    sessionStorageSet("themeParams", themeParams);
  }

  // The viewport: heights from the app's viewport_changed, window.innerHeight until then.
  var viewportHeight = false,
    viewportStableHeight = false,
    isExpanded = true;
  function setViewportHeight(data) {
    if (typeof data !== "undefined") {
      isExpanded = !!data.is_expanded;
      viewportHeight = data.height;
      if (data.is_state_stable) viewportStableHeight = data.height;
      receiveWebViewEvent("viewportChanged", { isStateStable: !!data.is_state_stable });
    }
    setCssProperty("viewport-height", viewportHeight !== false ? viewportHeight + "px" : "100vh");
    setCssProperty(
      "viewport-stable-height",
      viewportStableHeight !== false ? viewportStableHeight + "px" : "100vh"
    );
  }

  var lastWindowHeight = window.innerHeight;
  function onWindowResize() {
    if (lastWindowHeight != window.innerHeight) {
      lastWindowHeight = window.innerHeight;
      receiveWebViewEvent("viewportChanged", { isStateStable: true });
    }
  }

  function insetSetter(insets, cssName, webviewEvent) {
    return function (data) {
      if (typeof data !== "undefined") {
        ["top", "bottom", "left", "right"].forEach(function (side) {
          if (typeof data[side] !== "undefined") insets[side] = data[side];
        });
        receiveWebViewEvent(webviewEvent);
      }
      ["top", "bottom", "left", "right"].forEach(function (side) {
        setCssProperty(cssName + "-" + side, insets[side] + "px");
      });
    };
  }
  var safeAreaInset = { top: 0, bottom: 0, left: 0, right: 0 };
  var contentSafeAreaInset = { top: 0, bottom: 0, left: 0, right: 0 };
  var setSafeAreaInset = insetSetter(safeAreaInset, "safe-area-inset", "safeAreaChanged");
  var setContentSafeAreaInset = insetSetter(
    contentSafeAreaInset,
    "content-safe-area-inset",
    "contentSafeAreaChanged"
  );

  var isClosingConfirmationEnabled = false;
  function setClosingConfirmation(needConfirmation) {
    if (!versionAtLeast("6.2")) return warnRefusal("Closing confirmation");
    isClosingConfirmationEnabled = !!needConfirmation;
    postEvent("web_app_setup_closing_behavior", false, { need_confirmation: isClosingConfirmationEnabled });
  }

  var isVerticalSwipesEnabled = true;
  function toggleVerticalSwipes(enableSwipes) {
    if (!versionAtLeast("7.7")) return warnRefusal("Changing swipes behavior");
    isVerticalSwipesEnabled = !!enableSwipes;
    postEvent("web_app_setup_swipe_behavior", false, { allow_vertical_swipe: isVerticalSwipesEnabled });
  }

  // Colours: header and background, as the real script checks them.
  var headerColorKey = "bg_color",
    headerColor = null,
    appHeaderColorKey = null,
    appHeaderColor = null;
  function setHeaderColor(color) {
    if (!versionAtLeast("6.1")) return warnRefusal("Header color");
    if (!versionAtLeast("6.9")) {
      if (themeParams.bg_color && themeParams.bg_color == color) color = "bg_color";
      else if (themeParams.secondary_bg_color && themeParams.secondary_bg_color == color) {
        color = "secondary_bg_color";
      }
    }
    var headColor = null,
      colorKey = null;
    if (color == "bg_color" || color == "secondary_bg_color") {
      colorKey = color;
    } else if (versionAtLeast("6.9")) {
      headColor = parseColorToHex(color);
      if (!headColor) {
        console.error("[Telegram.WebApp] Header color format is invalid", color);
        throw Error("WebAppHeaderColorInvalid");
      }
    }
    if (!versionAtLeast("6.9") && colorKey != "bg_color" && colorKey != "secondary_bg_color") {
      console.error("[Telegram.WebApp] Header color key should be one of bg_color, secondary_bg_color", color);
      throw Error("WebAppHeaderColorKeyInvalid");
    }
    headerColorKey = colorKey;
    headerColor = headColor;
    updateHeaderColor();
  }
  function updateHeaderColor() {
    if (appHeaderColorKey != headerColorKey || appHeaderColor != headerColor) {
      appHeaderColorKey = headerColorKey;
      appHeaderColor = headerColor;
      if (appHeaderColor) postEvent("web_app_set_header_color", false, { color: headerColor });
      else postEvent("web_app_set_header_color", false, { color_key: headerColorKey });
    }
  }
  function getHeaderColor() {
    if (headerColorKey == "secondary_bg_color") return themeParams.secondary_bg_color;
    if (headerColorKey == "bg_color") return themeParams.bg_color;
    return headerColor;
  }

  var backgroundColor = "bg_color",
    appBackgroundColor = null;
  function getBackgroundColor() {
    if (backgroundColor == "secondary_bg_color") return themeParams.secondary_bg_color;
    if (backgroundColor == "bg_color") return themeParams.bg_color;
    return backgroundColor;
  }
  function setBackgroundColor(color) {
    if (!versionAtLeast("6.1")) return warnRefusal("Background color");
    var bgColor;
    if (color == "bg_color" || color == "secondary_bg_color") {
      bgColor = color;
    } else {
      bgColor = parseColorToHex(color);
      if (!bgColor) {
        console.error("[Telegram.WebApp] Background color format is invalid", color);
        throw Error("WebAppBackgroundColorInvalid");
      }
    }
    backgroundColor = bgColor;
    updateBackgroundColor();
  }
  function updateBackgroundColor() {
    var color = getBackgroundColor();
    if (appBackgroundColor != color) {
      appBackgroundColor = color;
      postEvent("web_app_set_background_color", false, { color: color });
    }
  }

  // The back button (6.1): every method warns and does nothing below it.
  var BackButton = (function () {
    var isVisible = false;
    var button = {};
    var shownState = null;
    function checkVersion() {
      if (!versionAtLeast("6.1")) {
        warnRefusal("BackButton");
        return false;
      }
      return true;
    }
    function setParams(params) {
      if (!checkVersion()) return button;
      if (typeof params.is_visible !== "undefined") isVisible = !!params.is_visible;
      var state = JSON.stringify({ is_visible: isVisible });
      if (shownState !== state) {
        shownState = state;
        postEvent("web_app_setup_back_button", false, { is_visible: isVisible });
      }
      return button;
    }
    Object.defineProperty(button, "isVisible", {
      set: function (value) {
        setParams({ is_visible: value });
      },
      get: function () {
        return isVisible;
      },
      enumerable: true,
    });
    onEvent("back_button_pressed", function () {
      receiveWebViewEvent("backButtonClicked");
    });
    button.onClick = api("BackButton.onClick", function (callback) {
      if (checkVersion()) onEvent("webview:backButtonClicked", callback);
      return button;
    });
    button.offClick = api("BackButton.offClick", function (callback) {
      if (checkVersion()) offEvent("webview:backButtonClicked", callback);
      return button;
    });
    button.show = api("BackButton.show", function () {
      return setParams({ is_visible: true });
    });
    button.hide = api("BackButton.hide", function () {
      return setParams({ is_visible: false });
    });
    return button;
  })();

  // Haptic feedback (6.1): warns and does nothing below it; a bad style throws.
  var HapticFeedback = (function () {
    var feedback = {};
    var IMPACTS = ["light", "medium", "heavy", "rigid", "soft"];
    var NOTIFICATIONS = ["error", "success", "warning"];
    function trigger(params) {
      if (!versionAtLeast("6.1")) {
        warnRefusal("HapticFeedback");
        return feedback;
      }
      if (params.type == "impact" && IMPACTS.indexOf(params.impact_style) < 0) {
        console.error("[Telegram.WebApp] Haptic impact style is invalid", params.impact_style);
        throw Error("WebAppHapticImpactStyleInvalid");
      }
      if (params.type == "notification" && NOTIFICATIONS.indexOf(params.notification_type) < 0) {
        console.error("[Telegram.WebApp] Haptic notification type is invalid", params.notification_type);
        throw Error("WebAppHapticNotificationTypeInvalid");
      }
      postEvent("web_app_trigger_haptic_feedback", false, params);
      return feedback;
    }
    feedback.impactOccurred = api("HapticFeedback.impactOccurred", function (style) {
      return trigger({ type: "impact", impact_style: style });
    });
    feedback.notificationOccurred = api("HapticFeedback.notificationOccurred", function (type) {
      return trigger({ type: "notification", notification_type: type });
    });
    feedback.selectionChanged = api("HapticFeedback.selectionChanged", function () {
      return trigger({ type: "selection_change" });
    });
    return feedback;
  })();

  function getter(name, get) {
    Object.defineProperty(WebApp, name, { get: get, enumerable: true });
  }
  getter("initData", function () {
    return webAppInitData;
  });
  getter("initDataUnsafe", function () {
    return webAppInitDataUnsafe;
  });
  getter("version", function () {
    return webAppVersion;
  });
  getter("platform", function () {
    return webAppPlatform;
  });
  getter("colorScheme", function () {
    return colorScheme;
  });
  getter("themeParams", function () {
    return themeParams;
  });
  getter("isExpanded", function () {
    return isExpanded;
  });
  getter("viewportHeight", function () {
    return viewportHeight === false ? window.innerHeight : viewportHeight;
  });
  getter("viewportStableHeight", function () {
    return viewportStableHeight === false ? window.innerHeight : viewportStableHeight;
  });
  getter("safeAreaInset", function () {
    return safeAreaInset;
  });
  getter("contentSafeAreaInset", function () {
    return contentSafeAreaInset;
  });
  getter("isFullscreen", function () {
    return webAppIsFullscreen;
  });
  getter("isActive", function () {
    return webAppIsActive;
  });
  getter("isClosingConfirmationEnabled", function () {
    return isClosingConfirmationEnabled;
  });
  getter("isVerticalSwipesEnabled", function () {
    return isVerticalSwipesEnabled;
  });
  getter("headerColor", getHeaderColor);
  getter("backgroundColor", getBackgroundColor);
  Object.defineProperty(WebApp, "BackButton", { value: BackButton, enumerable: true });
  Object.defineProperty(WebApp, "HapticFeedback", { value: HapticFeedback, enumerable: true });

  WebApp.isVersionAtLeast = api("isVersionAtLeast", versionAtLeast);
  WebApp.setHeaderColor = api("setHeaderColor", setHeaderColor);
  WebApp.setBackgroundColor = api("setBackgroundColor", setBackgroundColor);
  WebApp.enableClosingConfirmation = api("enableClosingConfirmation", function () {
    setClosingConfirmation(true);
  });
  WebApp.disableClosingConfirmation = api("disableClosingConfirmation", function () {
    setClosingConfirmation(false);
  });
  WebApp.enableVerticalSwipes = api("enableVerticalSwipes", function () {
    toggleVerticalSwipes(true);
  });
  WebApp.disableVerticalSwipes = api("disableVerticalSwipes", function () {
    toggleVerticalSwipes(false);
  });
  WebApp.requestFullscreen = api("requestFullscreen", function () {
    if (!versionAtLeast("8.0")) throwRefusal("requestFullscreen");
    postEvent("web_app_request_fullscreen");
  });
  WebApp.exitFullscreen = api("exitFullscreen", function () {
    if (!versionAtLeast("8.0")) throwRefusal("exitFullscreen");
    postEvent("web_app_exit_fullscreen");
  });
  WebApp.onEvent = api("onEvent", function (eventType, callback) {
    onEvent("webview:" + eventType, callback);
  });
  WebApp.offEvent = api("offEvent", function (eventType, callback) {
    offEvent("webview:" + eventType, callback);
  });
  WebApp.ready = api("ready", function () {
    postEvent("web_app_ready");
  });
  WebApp.expand = api("expand", function () {
    postEvent("web_app_expand");
  });
  WebApp.close = api("close", function (options) {
    var params = {};
    if (versionAtLeast("7.6") && options && options.return_back) params.return_back = true;
    postEvent("web_app_close", false, params);
  });

  window.Telegram.WebApp = WebApp;

  // What the app sends back (Telegram.WebView.receiveEvent).
  onEvent("theme_changed", function (eventType, eventData) {
    if (eventData.theme_params) {
      setThemeParams(eventData.theme_params);
      updateHeaderColor();
      updateBackgroundColor();
      receiveWebViewEvent("themeChanged");
    }
  });
  onEvent("viewport_changed", function (eventType, eventData) {
    if (eventData.height) {
      window.removeEventListener("resize", onWindowResize);
      setViewportHeight(eventData);
    }
  });
  onEvent("safe_area_changed", function (eventType, eventData) {
    if (eventData) setSafeAreaInset(eventData);
  });
  onEvent("content_safe_area_changed", function (eventType, eventData) {
    if (eventData) setContentSafeAreaInset(eventData);
  });
  onEvent("visibility_changed", function (eventType, eventData) {
    webAppIsActive = !!eventData.is_visible;
    receiveWebViewEvent(webAppIsActive ? "activated" : "deactivated");
  });
  onEvent("fullscreen_changed", function (eventType, eventData) {
    webAppIsFullscreen = !!eventData.is_fullscreen;
    receiveWebViewEvent("fullscreenChanged");
  });
  onEvent("fullscreen_failed", function (eventType, eventData) {
    if (eventData.error == "ALREADY_FULLSCREEN" && !webAppIsFullscreen) webAppIsFullscreen = true;
    receiveWebViewEvent("fullscreenFailed", { error: eventData.error });
  });

  updateHeaderColor();
  updateBackgroundColor();
  setViewportHeight(); // the safe areas' variables wait for the app's first answer, as there
  window.addEventListener("resize", onWindowResize);
  postEvent("web_app_request_theme");
  postEvent("web_app_request_viewport");
  postEvent("web_app_request_safe_area");
  postEvent("web_app_request_content_safe_area");

  // The tests' hand on the app's side.
  window.__telegramEmit = function (eventType, eventData) {
    receiveEvent(eventType, eventData);
  };
})();
