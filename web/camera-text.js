// The live camera's words in English and Chinese (the page's language, i18n.js's currentLang).
import { currentLang } from "./i18n.js";

const TEXT = {
  en: {
    table_camera: "Table camera",
    stop_camera: "Stop camera",
    needs_https: "The live camera needs a secure connection (HTTPS), so the camera app is used instead.",
    https_setup: "Set up HTTPS",
    no_camera: "This device has no camera the page may use; take or choose a photo instead.",
    camera_denied: "The camera was not allowed; allow it in the browser's settings, or take a photo instead.",
    looking: "Looking for tiles… hold the tablet over the hand.",
    tiles_seen: "{n} tiles seen",
    hold_still: "{n} tiles · hold still ({k}/{m})",
    moving: "{n} tiles · the picture is moving",
    few_tiles: "{n} tiles seen: fit the whole hand in the picture",
    busy_wait: "The server is busy reading; waiting {s} s…",
    capturing: "Steady: capturing…",
    camera_gone: "The table camera stopped: {m}",
  },
  zh: {
    table_camera: "桌面相机",
    stop_camera: "关闭相机",
    needs_https: "实时相机需要安全连接（HTTPS），所以改用系统相机应用。",
    https_setup: "设置 HTTPS",
    no_camera: "本设备没有可供网页使用的相机；请拍照或选择照片。",
    camera_denied: "相机未获允许；请在浏览器设置中允许，或改为拍照。",
    looking: "正在寻找牌张……把平板举在牌的上方。",
    tiles_seen: "看到 {n} 张牌",
    hold_still: "{n} 张牌 · 请保持不动（{k}/{m}）",
    moving: "{n} 张牌 · 画面在晃动",
    few_tiles: "只看到 {n} 张牌：请把整手牌放进画面",
    busy_wait: "服务器正忙，{s} 秒后再试……",
    capturing: "画面稳定：正在拍摄……",
    camera_gone: "桌面相机已停止：{m}",
  },
};

/** The camera text `key` in the page's language, with {name} filled from `vars`. */
export function ct(key, vars = {}) {
  const text = (TEXT[currentLang()] || TEXT.en)[key] || TEXT.en[key] || key;
  return text.replace(/\{(\w+)\}/g, (_, k) => String(vars[k] ?? ""));
}
