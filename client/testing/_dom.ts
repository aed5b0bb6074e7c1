// A DOM for tests: a happy-dom Window whose document, navigator, location
// and element classes are copied onto globalThis (happy-dom's own
// GlobalRegistrator replaces globals Deno's test runner needs, so it is not
// used). Deno's own web classes (Event, URL, fetch, FormData...) stay.

import { Window } from "happy-dom";
import { render } from "preact";

/** Globals the DOM always provides, replacing Deno's where it has them. */
const REPLACED = ["window", "document", "navigator", "location"] as const;

/** Globals copied only where Deno has none. */
const ADDED = [
  "history",
  "localStorage",
  "sessionStorage",
  "getComputedStyle",
  "getSelection",
  "matchMedia",
  "requestAnimationFrame",
  "cancelAnimationFrame",
  "customElements",
  "MutationObserver",
  "ResizeObserver",
  "IntersectionObserver",
  "DOMParser",
  "XMLSerializer",
  "Node",
  "NodeFilter",
  "NodeList",
  "Element",
  "Document",
  "DocumentFragment",
  "ShadowRoot",
  "Text",
  "Comment",
  "Range",
  "Selection",
  "UIEvent",
  "FocusEvent",
  "InputEvent",
  "KeyboardEvent",
  "MouseEvent",
  "PointerEvent",
  "SubmitEvent",
] as const;

const ELEMENT_CLASS = /^(HTML|SVG)\w*Element$/;

/** A DOM installed on globalThis, and how to take it away again. */
export interface InstalledDom {
  /** The happy-dom window. */
  readonly window: Window;
  /** Unmounts Preact trees and empties the document; back at `url`. */
  clear(): void;
  /** Restores the globals as they were and closes the window. */
  uninstall(): Promise<void>;
}

/**
 * Deno's BroadcastChannel reaches every worker of the process, and `deno
 * test --parallel` runs each test file in a worker of one process: left
 * as it is, one file's sign-out would reach another file's gate as
 * another tab's. Each installed DOM is a browser of its own: its channels
 * carry a scope in their name, so a test hears the tabs it opens itself
 * (`new BroadcastChannel(name)`) and no other file's.
 */
function scopedBroadcastChannel(): typeof BroadcastChannel | null {
  if (typeof BroadcastChannel === "undefined") return null;
  const Native = BroadcastChannel;
  const scope = `${Math.random().toString(36).slice(2)}\u0000`;
  return class ScopedBroadcastChannel extends Native {
    readonly #name: string;
    constructor(name: string) {
      super(scope + name);
      this.#name = String(name);
    }
    override get name(): string {
      return this.#name;
    }
  };
}

/** Installs a DOM whose location is `url`. */
export function installDom(url: string): InstalledDom {
  const window = new Window({ url });
  const source = window as unknown as Record<string, unknown>;
  const target = globalThis as unknown as Record<string, unknown>;
  const saved = new Map<string, PropertyDescriptor | undefined>();

  const put = (key: string, value: unknown) => {
    if (!saved.has(key)) {
      saved.set(key, Object.getOwnPropertyDescriptor(globalThis, key));
    }
    Object.defineProperty(globalThis, key, {
      value,
      configurable: true,
      writable: true,
      enumerable: false,
    });
  };

  for (const key of REPLACED) put(key, source[key]);
  const elementClasses = Object.getOwnPropertyNames(window).filter((key) =>
    ELEMENT_CLASS.test(key)
  );
  for (const key of [...ADDED, ...elementClasses]) {
    const value = source[key];
    if (value === undefined || key in target) continue;
    put(
      key,
      typeof value === "function" && !/^[A-Z]/.test(key)
        ? (value as (...args: unknown[]) => unknown).bind(window)
        : value,
    );
  }

  const scoped = scopedBroadcastChannel();
  if (scoped !== null) put("BroadcastChannel", scoped);

  return {
    window,
    clear() {
      const document = window.document;
      for (const child of [...document.body.children]) {
        // Unmounts a Preact tree rendered into it (effects clean up);
        // harmless for anything else.
        render(null, child as unknown as Element);
      }
      document.body.innerHTML = "";
      document.head.innerHTML = "";
      if (window.location.href !== url) window.happyDOM.setURL(url);
    },
    async uninstall() {
      for (const [key, descriptor] of saved) {
        if (descriptor === undefined) delete target[key];
        else Object.defineProperty(globalThis, key, descriptor);
      }
      saved.clear();
      await window.happyDOM.close();
    },
  };
}
