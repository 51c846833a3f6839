// What both pages use: $ finds an element by its id; el makes one, with attributes (dataset: data-*) and text.
"use strict";

const $ = (id) => document.getElementById(id);

function el(tag, attrs, text) {
  const e = document.createElement(tag);
  for (const [k, v] of Object.entries(attrs || {})) {
    if (k === "dataset") Object.assign(e.dataset, v); else e.setAttribute(k, v);
  }
  if (text !== undefined) e.textContent = text;
  return e;
}
