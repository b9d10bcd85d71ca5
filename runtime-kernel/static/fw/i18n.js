/*
 * fw browser client, i18n extension: window.fw.ext.i18n (served at /fluid/static/fw/i18n.js after
 * /fluid/static/fw/fw.js; types in i18n.d.ts).
 *
 *   <script src="/fluid/static/fw/fw.js"></script>
 *   <script src="/fluid/static/fw/i18n.js"></script>
 *   const t = fw.ext.i18n;
 *   await t.ready;                                  // the catalog of the connection's locale
 *   t._('Hello, %(name)s!', { name: 'Ada' });       // from the cache, synchronous
 *   t._np('inbox', '%(num)d message', '%(num)d messages', 5);
 *   await t.live._p('door', 'Open');                // asks the server (/ws/i18n translate)
 *
 * The argument order is the server's everywhere: _(msgid), _n(singular, plural, n),
 * _p(context, msgid), _np(context, singular, plural, n); each takes optional variables last.
 * The locale is negotiated by the server from the socket's upgrade request (?lang= is not sent;
 * the `lang` cookie and Accept-Language are).
 */
(function () {
  'use strict';
  var fw = window.fw;
  if (!fw || typeof fw.extend !== 'function') {
    throw new Error('fw i18n: load /fluid/static/fw/fw.js before /fluid/static/fw/i18n.js');
  }
  if (fw.ext.i18n) return; // loaded twice: keep the first

  var SEP = '\u0004';
  var PATTERN = /%%|%\((\w+)\)([sdif])|\{(\w+)\}/g;

  /** `%(name)s`, `%(num)d`, `%%` and `{name}`, as the server interpolates. */
  function interpolate(text, vars) {
    if (!vars) return text;
    return text.replace(PATTERN, function (whole, py, conv, brace) {
      if (whole === '%%') return '%';
      var name = py || brace;
      if (!Object.prototype.hasOwnProperty.call(vars, name)) return whole;
      var value = vars[name];
      if (conv === 'd' || conv === 'i') return String(Math.trunc(Number(value)));
      if (conv === 'f') return String(Number(value));
      return String(value);
    });
  }

  function countVars(n, vars) {
    return Object.assign({ n: n, num: n }, vars);
  }

  function key(context, msgid) {
    return context ? context + SEP + msgid : msgid;
  }

  fw.extend('i18n', function (fw) {
    var socket = fw.socket('/ws/i18n');
    var catalog = { locale: document.documentElement.lang || 'en', messages: {}, plurals: {} };
    var rules = new Intl.PluralRules(catalog.locale);

    function load() {
      return socket.request({ action: 'cache' }).then(function (data) {
        catalog = data;
        rules = new Intl.PluralRules(data.locale);
        api.locale = data.locale;
        return api;
      });
    }

    function find(k) {
      var forms = catalog.messages[k];
      return forms ? forms[0] : null;
    }

    function findPlural(k, n) {
      var forms = catalog.messages[k];
      if (!forms) return null;
      var i = catalog.plurals[rules.select(n)];
      // A catalog with fewer forms than the locale has categories: the last form, as the server.
      var form = i === undefined ? undefined : forms[i];
      return form === undefined ? forms[forms.length - 1] : form;
    }

    function translate(fn, args, vars) {
      var frame = { action: 'translate', fn: fn, args: args };
      if (vars) frame.vars = vars;
      return socket.request(frame);
    }

    var api = {
      locale: catalog.locale,
      ready: null,
      reload: load,
      _: function (msgid, vars) {
        var hit = find(key('', msgid));
        return interpolate(hit === null ? msgid : hit, vars);
      },
      _n: function (singular, plural, n, vars) {
        var hit = findPlural(key('', singular), n);
        return interpolate(hit === null ? (n === 1 ? singular : plural) : hit, countVars(n, vars));
      },
      _p: function (context, msgid, vars) {
        var hit = find(key(context, msgid));
        return interpolate(hit === null ? msgid : hit, vars);
      },
      _np: function (context, singular, plural, n, vars) {
        var hit = findPlural(key(context, singular), n);
        return interpolate(hit === null ? (n === 1 ? singular : plural) : hit, countVars(n, vars));
      },
      live: {
        _: function (msgid, vars) {
          return translate('gettext', [msgid], vars);
        },
        _n: function (singular, plural, n, vars) {
          return translate('ngettext', [singular, plural, n], vars);
        },
        _p: function (context, msgid, vars) {
          return translate('pgettext', [context, msgid], vars);
        },
        _np: function (context, singular, plural, n, vars) {
          return translate('npgettext', [context, singular, plural, n], vars);
        },
      },
    };
    api.ready = load();
    api.ready.catch(function () {}); // callers see the rejection through `ready`; no unhandled rejection
    socket.onReconnect(function () {
      load().catch(function () {});
    });
    return api;
  });
})();
