/*
 * fw browser client: window.fw (served by the kernel at /fluid/static/fw/fw.js; types in fw.d.ts).
 *
 *   <script src="/fluid/static/fw/fw.js"></script>
 *   await fw.events.subscribe('news', (data) => console.log(data));
 *   const answer = await fw.events.query('stats', { day: 'today' });
 *
 * Sockets reconnect with backoff (250 ms doubling to 10 s, with jitter) and resubscribe.
 * Extensions (e.g. i18n) register with fw.extend(name, factory) and live on fw.ext[name].
 */
(function () {
  'use strict';
  if (window.fw && window.fw.version) return; // loaded twice: keep the first

  var BASE_DELAY = 250;
  var MAX_DELAY = 10000;
  var REQUEST_TIMEOUT = 30000;

  /** A JSON request/answer socket on `path` (e.g. '/ws/events') that reconnects on its own. */
  function FwSocket(path) {
    this.path = path;
    this.url = (location.protocol === 'https:' ? 'wss://' : 'ws://') + location.host + path;
    this.ws = null;
    this.nextId = 1;
    this.pending = {}; // id -> { resolve, reject, timer }
    this.queue = []; // frames waiting for the connection
    this.pushHandlers = [];
    this.reconnectHandlers = [];
    this.attempt = 0;
    this.everOpened = false;
    this.closed = false;
    this.timer = null;
  }

  FwSocket.prototype.connect = function () {
    if (this.ws || this.closed) return;
    var self = this;
    var ws = new WebSocket(this.url);
    this.ws = ws;
    ws.onopen = function () {
      var reconnected = self.everOpened;
      self.everOpened = true;
      self.attempt = 0;
      var waiting = self.queue.splice(0);
      for (var i = 0; i < waiting.length; i++) ws.send(waiting[i]);
      if (reconnected) {
        for (var j = 0; j < self.reconnectHandlers.length; j++) self.reconnectHandlers[j]();
      }
    };
    ws.onmessage = function (message) {
      var frame;
      try {
        frame = JSON.parse(message.data);
      } catch (e) {
        return;
      }
      if (!frame || typeof frame !== 'object') return;
      if (frame.id !== undefined && self.pending[frame.id]) {
        var p = self.pending[frame.id];
        delete self.pending[frame.id];
        clearTimeout(p.timer);
        if (typeof frame.error === 'string') {
          var err = new Error(frame.error);
          err.frame = frame;
          p.reject(err);
        } else p.resolve(frame.data);
        return;
      }
      for (var i = 0; i < self.pushHandlers.length; i++) self.pushHandlers[i](frame);
    };
    ws.onclose = function () {
      self.ws = null;
      for (var id in self.pending) {
        clearTimeout(self.pending[id].timer);
        self.pending[id].reject(new Error('fw: connection to ' + self.path + ' lost'));
      }
      self.pending = {};
      if (self.closed) return;
      var delay = Math.min(BASE_DELAY * Math.pow(2, self.attempt), MAX_DELAY);
      self.attempt++;
      self.timer = setTimeout(function () {
        self.timer = null;
        self.connect();
      }, delay * (0.5 + Math.random() / 2));
    };
    ws.onerror = function () {}; // onclose follows and reconnects
  };

  /** Sends `frame` with a fresh id; resolves with the answer's `data`, rejects with its `error`. */
  FwSocket.prototype.request = function (frame) {
    var self = this;
    if (this.closed) return Promise.reject(new Error('fw: socket ' + this.path + ' is closed'));
    var id = this.nextId++;
    var text = JSON.stringify(Object.assign({ id: id }, frame));
    return new Promise(function (resolve, reject) {
      var timer = setTimeout(function () {
        delete self.pending[id];
        reject(new Error('fw: no answer from ' + self.path + ' within ' + REQUEST_TIMEOUT + ' ms'));
      }, REQUEST_TIMEOUT);
      self.pending[id] = { resolve: resolve, reject: reject, timer: timer };
      if (self.ws && self.ws.readyState === WebSocket.OPEN) self.ws.send(text);
      else {
        self.queue.push(text);
        self.connect();
      }
    });
  };

  /** Calls `handler(frame)` for every frame that answers no request (pushed events). */
  FwSocket.prototype.onPush = function (handler) {
    this.pushHandlers.push(handler);
  };

  /** Calls `handler()` after every reconnection (not the first connection). */
  FwSocket.prototype.onReconnect = function (handler) {
    this.reconnectHandlers.push(handler);
  };

  /** Closes for good: no reconnection; waiting requests fail. */
  FwSocket.prototype.close = function () {
    this.closed = true;
    if (this.timer) clearTimeout(this.timer);
    if (this.ws) this.ws.close();
    this.queue = [];
  };

  var sockets = {};
  /** The shared socket on `path` (one per path per page). */
  function socket(path) {
    if (!sockets[path]) sockets[path] = new FwSocket(path);
    return sockets[path];
  }

  // --- events (/ws/events) ---
  var handlers = {}; // event -> [handler]
  var eventsSocket = null;
  function events() {
    if (eventsSocket) return eventsSocket;
    eventsSocket = socket('/ws/events');
    eventsSocket.onPush(function (frame) {
      var list = typeof frame.event === 'string' ? handlers[frame.event] : undefined;
      if (!list) return;
      list = list.slice();
      for (var i = 0; i < list.length; i++) {
        try {
          list[i](frame.data, frame.event);
        } catch (e) {
          setTimeout(function () {
            throw e;
          });
        }
      }
    });
    eventsSocket.onReconnect(function () {
      for (var name in handlers) {
        if (handlers[name].length) eventsSocket.request({ action: 'subscribe', event: name }).catch(function () {});
      }
    });
    return eventsSocket;
  }

  var fw = {
    version: '1',
    socket: socket,
    ext: {},
    events: {
      subscribe: function (event, handler) {
        if (typeof handler !== 'function') return Promise.reject(new TypeError('fw.events.subscribe: handler must be a function'));
        var list = handlers[event] || (handlers[event] = []);
        list.push(handler);
        if (list.length > 1) return Promise.resolve();
        return events()
          .request({ action: 'subscribe', event: event })
          .then(
            function () {},
            function (err) {
              var at = list.indexOf(handler);
              if (at >= 0) list.splice(at, 1);
              throw err;
            }
          );
      },
      unsubscribe: function (event, handler) {
        var list = handlers[event];
        if (!list) return Promise.resolve(false);
        if (handler) {
          var at = list.indexOf(handler);
          if (at >= 0) list.splice(at, 1);
        } else list.length = 0;
        if (list.length) return Promise.resolve(true);
        delete handlers[event];
        return events().request({ action: 'unsubscribe', event: event });
      },
      query: function (name, payload) {
        return events().request({ action: 'query', query: name, payload: payload === undefined ? null : payload });
      },
    },
    /** Registers an extension: fw.ext[name] = factory(fw). */
    extend: function (name, factory) {
      if (typeof name !== 'string' || !name) throw new TypeError('fw.extend: name must be a non-empty string');
      if (typeof factory !== 'function') throw new TypeError('fw.extend: factory must be a function');
      if (Object.prototype.hasOwnProperty.call(fw.ext, name)) throw new Error("fw.extend: an extension named '" + name + "' is already registered");
      fw.ext[name] = factory(fw);
      return fw.ext[name];
    },
  };
  window.fw = fw;
})();
