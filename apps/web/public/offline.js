// The offline page's only script (public/offline.html): "Try again" reloads the page, the page
// reloads by itself when the connection returns, and the texts follow the language chosen in
// the app (`preferred-language`) for Spanish and Hindi. No app code: this must work alone.
/* global window, document */
(function () {
  'use strict';

  var TEXTS = {
    es: {
      pageTitle: 'Sin conexión · Blood Donation Management System',
      title: 'Estás sin conexión',
      message:
        'Esta página necesita conexión a internet y todavía no se ha guardado en este dispositivo.',
      tipSaved: 'Las páginas que ya abriste siguen funcionando sin conexión.',
      tipRetry: 'Cuando vuelvas a tener conexión, inténtalo de nuevo: la página se cargará.',
      retry: 'Intentar de nuevo',
      home: 'Ir a la página de inicio',
      checking: 'Comprobando la conexión…',
      stillOffline: 'Sigues sin conexión. Inténtalo de nuevo en un momento.',
      emergency:
        'En una emergencia médica, llama al 112 (o al 108 para una ambulancia). Los hospitales y bancos de sangre atienden por teléfono aunque no haya internet.',
    },
    hi: {
      pageTitle: 'आप ऑफ़लाइन हैं · Blood Donation Management System',
      title: 'आप ऑफ़लाइन हैं',
      message: 'इस पेज के लिए इंटरनेट चाहिए, और यह अभी इस डिवाइस पर सेव नहीं हुआ है।',
      tipSaved: 'जो पेज आप पहले खोल चुके हैं, वे बिना इंटरनेट के भी चलते हैं।',
      tipRetry: 'इंटरनेट वापस आने पर फिर से कोशिश करें: पेज खुल जाएगा।',
      retry: 'फिर से कोशिश करें',
      home: 'होम पेज पर जाएँ',
      checking: 'कनेक्शन जाँचा जा रहा है…',
      stillOffline: 'आप अभी भी ऑफ़लाइन हैं। थोड़ी देर बाद फिर से कोशिश करें।',
      emergency:
        'चिकित्सा आपात स्थिति में 112 (या एम्बुलेंस के लिए 108) पर कॉल करें। अस्पतालों और ब्लड बैंकों से इंटरनेट के बिना भी फ़ोन पर संपर्क हो सकता है।',
    },
    en: {
      checking: 'Checking the connection…',
      stillOffline: 'Still offline. Please try again in a moment.',
    },
  };

  var language = 'en';
  try {
    var stored = window.localStorage.getItem('preferred-language');
    if (stored && TEXTS[stored] && stored !== 'en') language = stored;
  } catch {
    // Storage unavailable: English.
  }
  var texts = TEXTS[language];

  if (language !== 'en') {
    document.documentElement.lang = language;
    document.title = texts.pageTitle;
    var nodes = document.querySelectorAll('[data-text]');
    for (var index = 0; index < nodes.length; index++) {
      var key = nodes[index].getAttribute('data-text');
      if (texts[key]) nodes[index].textContent = texts[key];
    }
  }

  var status = document.getElementById('status');
  function say(text) {
    if (!status) return;
    status.hidden = false;
    status.textContent = text;
  }

  var retry = document.getElementById('retry');
  if (retry) {
    retry.addEventListener('click', function (event) {
      event.preventDefault();
      if (navigator.onLine === false) {
        say(texts.stillOffline || TEXTS.en.stillOffline);
        return;
      }
      say(texts.checking || TEXTS.en.checking);
      window.location.reload();
    });
  }

  window.addEventListener('online', function () {
    window.location.reload();
  });
})();
