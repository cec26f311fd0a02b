// Search for the site opened from the disk (site/index.html, a file:// URL), written for levelbench.
// Browsers refuse `new Worker(url)` on file:// pages, and the theme's search runs in a worker. Here
// the worker's script runs in a hidden iframe of the page instead (same origin), with the same
// interface both ways: the page calls postMessage and listens for "message" events; the script
// calls its global postMessage and listens for "message" on its global scope. Served over HTTP,
// this file does nothing. mkdocs.yml names it in extra.polyfills (the offline plugin then adds no
// script of its own from a CDN).
(function () {
  "use strict";
  if (location.protocol !== "file:") return;

  class FrameWorker extends EventTarget {
    constructor(url) {
      super();
      this.pending = [];
      this.ready = false;
      this.frame = document.createElement("iframe");
      this.frame.style.display = "none";
      (document.body || document.documentElement).appendChild(this.frame);
      this.scope = this.frame.contentWindow;
      // what the script posts arrives on this object as a "message" event
      this.scope.postMessage = (data) => this.dispatchEvent(new MessageEvent("message", { data }));
      const script = this.scope.document.createElement("script");
      script.src = new URL(url, location.href).href;
      script.onload = () => {
        this.ready = true;
        for (const data of this.pending.splice(0)) this.postMessage(data);
      };
      script.onerror = () => this.dispatchEvent(new Event("error"));
      this.scope.document.head.appendChild(script);
    }

    postMessage(data) {
      if (!this.ready) {
        this.pending.push(data);  // the script is still loading: deliver in order once it runs
        return;
      }
      this.scope.dispatchEvent(new this.scope.MessageEvent("message", { data }));
    }

    terminate() {
      this.frame.remove();
    }
  }

  window.Worker = FrameWorker;
})();
