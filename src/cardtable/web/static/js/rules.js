// The rules of a game (#/rules/{game}), from the catalog's numbered sections.
import { h } from "./dom.js";
import { has, language, t } from "./i18n.js";

const RULES = ["skipbo", "skyjo"];

function draw(app, game) {
  const article = h("article", { class: "panel rules", lang: language() }, h("h1", {}, t(`web.rules.${game}_title`)));
  for (let i = 1; has(`web.rules.${game}.${i}.title`); i++) {
    article.append(h("h2", {}, t(`web.rules.${game}.${i}.title`)));
    for (const para of t(`web.rules.${game}.${i}.text`).split("\n")) article.append(h("p", {}, para));
  }
  article.append(h("p", { class: "muted" }, t("web.rules.note")));
  app.replaceChildren(article);
  document.body.dataset.page = "rules";
}

// #/rules/{game} (page.js); null for a game the page does not know.
export function rulesPage(game) {
  if (!RULES.includes(game)) return null;
  let app = null;
  return {
    title: () => t(`web.rules.${game}_title`),
    mount(into) { app = into; draw(app, game); },
    redraw: () => draw(app, game),
  };
}
