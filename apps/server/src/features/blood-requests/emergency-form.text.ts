import type { MessageLanguage } from '@bdms/shared';

/**
 * The emergency form's own page when a request sent before the app's script arrived could not be
 * made (emergency-form.routes.ts), in every MESSAGE_LANGUAGE. The app's texts say the same
 * (apps/web/src/i18n/locales/<lang>/requests.json).
 */
export const EMERGENCY_FORM_TEXT: Record<
  MessageLanguage,
  {
    title: string;
    invalid: string;
    tooMany: string;
    failed: string;
    duplicateTitle: string;
    duplicateElsewhere: string;
    call: string;
    back: string;
    /** Issue #32 item 8: the form was sent by another site's page. */
    otherSite: string;
  }
> = {
  en: {
    title: 'Your request was not sent',
    invalid:
      'Some details are missing or not valid. Go back to the form, check the blood type, urgency, hospital, state, city, your name and your phone number, and send it again.',
    tooMany: 'Too many requests were sent from here. Try again in {minutes} minutes.',
    failed: 'Something went wrong on our side. Please try again in a moment.',
    duplicateTitle: 'A request like this is already open',
    duplicateElsewhere:
      'An open request with this phone number, blood type and hospital already exists, so no new request was made. If you gave an e-mail address with it, its tracking link has been sent there.',
    call: 'In an emergency, call 108 or 112 now.',
    back: 'Back to the form',
    otherSite:
      "This form can only be sent from this site's own emergency page. Open the form here and send it again.",
  },
  es: {
    title: 'Su solicitud no se envió',
    invalid:
      'Faltan datos o alguno no es válido. Vuelva al formulario, revise el grupo sanguíneo, la urgencia, el hospital, el estado, la ciudad, su nombre y su teléfono, y envíelo de nuevo.',
    tooMany:
      'Se enviaron demasiadas solicitudes desde aquí. Inténtelo de nuevo en {minutes} minutos.',
    failed: 'Algo falló de nuestro lado. Inténtelo de nuevo en un momento.',
    duplicateTitle: 'Ya hay una solicitud como esta abierta',
    duplicateElsewhere:
      'Ya existe una solicitud abierta con este teléfono, grupo sanguíneo y hospital, así que no se creó una nueva. Si indicó un correo electrónico, se le envió allí el enlace de seguimiento.',
    call: 'En una emergencia, llame ahora al 108 o al 112.',
    back: 'Volver al formulario',
    otherSite:
      'Este formulario solo se puede enviar desde la página de emergencia de este sitio. Abra el formulario aquí y envíelo de nuevo.',
  },
  hi: {
    title: 'आपका अनुरोध नहीं भेजा गया',
    invalid:
      'कुछ जानकारी छूट गई है या सही नहीं है। फ़ॉर्म पर वापस जाएँ, ब्लड ग्रुप, तात्कालिकता, अस्पताल, राज्य, शहर, अपना नाम और फ़ोन नंबर जाँचें, और फिर से भेजें।',
    tooMany: 'यहाँ से बहुत अधिक अनुरोध भेजे गए हैं। {minutes} मिनट बाद फिर से कोशिश करें।',
    failed: 'हमारी ओर से कुछ गड़बड़ हुई। कृपया थोड़ी देर बाद फिर से कोशिश करें।',
    duplicateTitle: 'ऐसा एक अनुरोध पहले से खुला है',
    duplicateElsewhere:
      'इस फ़ोन नंबर, ब्लड ग्रुप और अस्पताल के साथ एक खुला अनुरोध पहले से है, इसलिए नया अनुरोध नहीं बनाया गया। यदि आपने उसके साथ ईमेल पता दिया था, तो ट्रैकिंग लिंक वहाँ भेज दिया गया है।',
    call: 'आपात स्थिति में अभी 108 या 112 पर कॉल करें।',
    back: 'फ़ॉर्म पर वापस जाएँ',
    otherSite: 'यह फ़ॉर्म केवल इसी साइट के आपातकालीन पेज से भेजा जा सकता है। फ़ॉर्म यहीं खोलें और फिर से भेजें।',
  },
  bn: {
    title: 'আপনার অনুরোধ পাঠানো হয়নি',
    invalid:
      'কিছু তথ্য নেই বা সঠিক নয়। ফর্মে ফিরে যান, রক্তের গ্রুপ, জরুরিতা, হাসপাতাল, রাজ্য, শহর, আপনার নাম ও ফোন নম্বর দেখে নিয়ে আবার পাঠান।',
    tooMany: 'এখান থেকে অনেক বেশি অনুরোধ পাঠানো হয়েছে। {minutes} মিনিট পরে আবার চেষ্টা করুন।',
    failed: 'আমাদের দিকে কিছু সমস্যা হয়েছে। একটু পরে আবার চেষ্টা করুন।',
    duplicateTitle: 'এমন একটি অনুরোধ আগে থেকেই খোলা আছে',
    duplicateElsewhere:
      'এই ফোন নম্বর, রক্তের গ্রুপ ও হাসপাতালের সঙ্গে একটি খোলা অনুরোধ আগে থেকেই আছে, তাই নতুন অনুরোধ তৈরি হয়নি। আপনি ইমেল ঠিকানা দিয়ে থাকলে ট্র্যাকিং লিঙ্ক সেখানে পাঠানো হয়েছে।',
    call: 'জরুরি অবস্থায় এখনই 108 বা 112 নম্বরে ফোন করুন।',
    back: 'ফর্মে ফিরে যান',
    otherSite:
      'এই ফর্মটি শুধু এই সাইটের নিজস্ব জরুরি পাতা থেকেই পাঠানো যায়। ফর্মটি এখানে খুলে আবার পাঠান।',
  },
  mr: {
    title: 'तुमची विनंती पाठवली गेली नाही',
    invalid:
      'काही माहिती राहिली आहे किंवा बरोबर नाही. फॉर्मवर परत जा, रक्तगट, तातडी, रुग्णालय, राज्य, शहर, तुमचे नाव आणि फोन नंबर तपासा आणि पुन्हा पाठवा.',
    tooMany: 'येथून खूप विनंत्या पाठवल्या गेल्या आहेत. {minutes} मिनिटांनी पुन्हा प्रयत्न करा.',
    failed: 'आमच्या बाजूने काहीतरी चुकले. कृपया थोड्या वेळाने पुन्हा प्रयत्न करा.',
    duplicateTitle: 'अशी विनंती आधीच उघडी आहे',
    duplicateElsewhere:
      'या फोन नंबर, रक्तगट आणि रुग्णालयासह एक उघडी विनंती आधीच आहे, म्हणून नवीन विनंती तयार केली नाही. तुम्ही ईमेल पत्ता दिला असल्यास ट्रॅकिंग लिंक तिथे पाठवली आहे.',
    call: 'आणीबाणीत आत्ताच 108 किंवा 112 वर कॉल करा.',
    back: 'फॉर्मवर परत जा',
    otherSite: 'हा फॉर्म फक्त याच साइटच्या आपत्कालीन पानावरून पाठवता येतो. फॉर्म इथे उघडा आणि पुन्हा पाठवा.',
  },
  te: {
    title: 'మీ అభ్యర్థన పంపబడలేదు',
    invalid:
      'కొన్ని వివరాలు లేవు లేదా సరైనవి కావు. ఫారమ్‌కు తిరిగి వెళ్లి, రక్త గ్రూపు, అత్యవసరత, ఆసుపత్రి, రాష్ట్రం, నగరం, మీ పేరు, ఫోన్ నంబర్ చూసి మళ్లీ పంపండి.',
    tooMany: 'ఇక్కడి నుండి చాలా ఎక్కువ అభ్యర్థనలు పంపబడ్డాయి. {minutes} నిమిషాల తర్వాత మళ్లీ ప్రయత్నించండి.',
    failed: 'మా వైపు ఏదో పొరపాటు జరిగింది. కాసేపటి తర్వాత మళ్లీ ప్రయత్నించండి.',
    duplicateTitle: 'ఇలాంటి అభ్యర్థన ఇప్పటికే తెరిచి ఉంది',
    duplicateElsewhere:
      'ఈ ఫోన్ నంబర్, రక్త గ్రూపు, ఆసుపత్రితో ఒక తెరిచి ఉన్న అభ్యర్థన ఇప్పటికే ఉంది, కాబట్టి కొత్త అభ్యర్థన చేయలేదు. మీరు ఇమెయిల్ చిరునామా ఇచ్చి ఉంటే, ట్రాకింగ్ లింక్ అక్కడికి పంపబడింది.',
    call: 'అత్యవసర పరిస్థితిలో ఇప్పుడే 108 లేదా 112కు కాల్ చేయండి.',
    back: 'ఫారమ్‌కు తిరిగి వెళ్లండి',
    otherSite: 'ఈ ఫారమ్‌ను ఈ సైట్ యొక్క అత్యవసర పేజీ నుండి మాత్రమే పంపగలరు. ఫారమ్‌ను ఇక్కడ తెరిచి మళ్లీ పంపండి.',
  },
  ta: {
    title: 'உங்கள் கோரிக்கை அனுப்பப்படவில்லை',
    invalid:
      'சில விவரங்கள் விடுபட்டுள்ளன அல்லது சரியாக இல்லை. படிவத்துக்குத் திரும்பி, இரத்த வகை, அவசரம், மருத்துவமனை, மாநிலம், நகரம், உங்கள் பெயர், தொலைபேசி எண் ஆகியவற்றைச் சரிபார்த்து மீண்டும் அனுப்புங்கள்.',
    tooMany: 'இங்கிருந்து அதிகமான கோரிக்கைகள் அனுப்பப்பட்டுள்ளன. {minutes} நிமிடங்களில் மீண்டும் முயலுங்கள்.',
    failed: 'எங்கள் பக்கத்தில் ஏதோ தவறு நடந்தது. சிறிது நேரத்தில் மீண்டும் முயலுங்கள்.',
    duplicateTitle: 'இது போன்ற கோரிக்கை ஏற்கெனவே திறந்துள்ளது',
    duplicateElsewhere:
      'இந்தத் தொலைபேசி எண், இரத்த வகை, மருத்துவமனையுடன் ஒரு திறந்த கோரிக்கை ஏற்கெனவே உள்ளது, எனவே புதிய கோரிக்கை உருவாக்கப்படவில்லை. நீங்கள் மின்னஞ்சல் முகவரி கொடுத்திருந்தால், கண்காணிப்பு இணைப்பு அங்கு அனுப்பப்பட்டுள்ளது.',
    call: 'அவசரநிலையில் இப்போதே 108 அல்லது 112ஐ அழையுங்கள்.',
    back: 'படிவத்துக்குத் திரும்பு',
    otherSite:
      'இந்தப் படிவத்தை இந்தத் தளத்தின் அவசரப் பக்கத்திலிருந்து மட்டுமே அனுப்ப முடியும். படிவத்தை இங்கே திறந்து மீண்டும் அனுப்புங்கள்.',
  },
};
