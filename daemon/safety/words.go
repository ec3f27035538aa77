package safety

// The vocabulary of consequential UI actions: the common button and menu
// labels of Android apps and system UI in English, Spanish, French, German,
// Portuguese, Chinese and Japanese, by category. These are generic platform
// and product words (what "Delete" is called in each language), not the
// texts of any particular app.
//
// Latin-script entries are word sequences compared on tokens after lower
// casing and removing diacritics ("löschen" matches "Löschen" and
// "loschen"); an English verb also matches its -s/-ed/-ing/-ion forms
// ("delete" matches "Deleting"). CJK entries are compared as substrings.

// actionWords label elements whose activation has the category's effect.
var actionWords = map[Category][]string{
	Destroy: {
		"delete", "remove", "erase", "trash", "move to trash", "move to bin", "discard", "wipe", "uninstall",
		"format card", "format sd card", "format storage", "factory reset", "reset", "reset all", "clear data",
		"clear storage", "clear all", "clear history", "clear cache", "clear call log", "clear call history", "clear conversation",
		"empty trash", "empty bin", "empty recycle bin", "purge", "destroy", "revoke", "forget",
		"unpair", "unsubscribe", "cancel subscription",
	},
	Send: {
		"send", "send now", "share", "forward", "post", "publish", "reply", "reply all", "tweet", "upload", "submit",
		"send message", "send email",
	},
	Money: {
		"pay", "pay now", "buy", "buy now", "purchase", "checkout", "check out", "place order", "order now", "transfer",
		"send money", "subscribe", "donate", "confirm payment", "confirm purchase", "add to cart",
	},
	Call:    {"call", "dial", "call back", "video call", "voice call"},
	Account: {"sign out", "log out", "logout", "signout", "deactivate", "delete account", "close account", "block", "report", "change password", "turn off protection"},
}

// actionWordsIntl are actionWords in other languages, matched as written
// (no English inflection: "discar" must not match "discard").
var actionWordsIntl = map[Category][]string{
	Destroy: {
		// es
		"eliminar", "borrar", "suprimir", "quitar", "descartar", "desinstalar", "restablecer", "vaciar papelera",
		"mover a la papelera", "borrar datos",
		// fr
		"supprimer", "supprimez", "effacer", "retirer", "jeter", "desinstaller", "reinitialiser", "vider la corbeille",
		"mettre a la corbeille",
		// de
		"loschen", "entfernen", "verwerfen", "deinstallieren", "zurucksetzen", "papierkorb leeren",
		"in den papierkorb", "daten loschen",
		// pt
		"excluir", "apagar", "remover", "redefinir", "esvaziar lixeira", "mover para a lixeira", "limpar dados",
		// zh (simplified and traditional), ja
		"删除", "刪除", "移除", "清除", "清空", "卸载", "解除安裝", "恢复出厂", "恢復原廠", "格式化", "丢弃", "捨棄",
		"削除", "消去", "アンインストール", "初期化", "ゴミ箱", "破棄", "リセット",
	},
	Send: {
		"enviar", "compartir", "reenviar", "publicar", "responder",
		"envoyer", "partager", "transferer", "publier", "repondre",
		"senden", "schicken", "teilen", "weiterleiten", "veroffentlichen", "antworten", "absenden",
		"compartilhar", "partilhar", "encaminhar",
		"发送", "發送", "分享", "转发", "轉寄", "发布", "發佈", "回复", "回覆", "提交",
		"送信", "共有", "転送", "投稿", "返信",
	},
	Money: {
		"pagar", "comprar", "transferir", "suscribirse", "realizar pedido", "finalizar compra",
		"payer", "acheter", "commander", "virement", "s abonner", "passer la commande",
		"bezahlen", "kaufen", "jetzt kaufen", "uberweisen", "abonnieren", "bestellen", "zur kasse",
		"assinar", "finalizar pedido",
		"支付", "付款", "购买", "購買", "转账", "轉帳", "下单", "订阅", "訂閱", "结账", "結帳",
		"支払", "購入", "送金", "注文", "決済",
	},
	Call: {
		"llamar", "marcar", "appeler", "composer", "anrufen", "wahlen", "ligar", "chamar", "discar",
		"拨打", "撥打", "呼叫", "通话", "發起通話", "発信", "電話をかける", "通話",
	},
	Account: {
		"cerrar sesion", "bloquear", "denunciar", "se deconnecter", "deconnexion", "bloquer", "signaler",
		"abmelden", "ausloggen", "blockieren", "melden", "sair da conta", "terminar sessao",
		"退出登录", "登出", "注销", "註銷", "屏蔽", "封鎖", "举报", "檢舉",
		"ログアウト", "ブロック", "通報", "サインアウト",
	},
}

// commandWords are what an owner says to ask for the category's effect,
// beyond actionWords ("text Alice" asks to send, "get rid of" to delete).
var commandWords = map[Category][]string{
	Destroy: {"get rid of", "clean up", "clear", "empty", "throw away"},
	Send:    {"text", "message", "sms", "email", "mail", "tell", "write to", "dm", "respond", "send back"},
	Money:   {"book", "rent", "top up", "recharge"},
	Call:    {"ring", "phone", "facetime", "video chat"},
	Account: {"log off", "sign off", "logoff"},
	// typing over a document's text: only words that say the old text
	// goes ("write", "add" and "change" do not: "write eggs in the
	// list" means to add to it)
	Overwrite: {"replace", "overwrite", "rewrite", "retype", "erase", "wipe", "clear", "edit"},
}

// commandWordsIntl are commandWords in the other languages, matched as
// written (no English inflection), for the categories no element label
// names (typing over a text is asked for, never tapped).
var commandWordsIntl = map[Category][]string{
	Overwrite: {
		"reemplazar", "reemplaza", "sobrescribir", "sobrescribe", "reescribir", "editar", "edita", // es (pt "editar" too)
		"remplacer", "remplace", "ecraser", "ecrase", "reecrire", "modifier le texte", // fr
		"ersetzen", "ersetze", "uberschreiben", "uberschreibe", "neu schreiben", "bearbeiten", "bearbeite", // de
		"substituir", "substitua", "sobrescrever", "sobrescreva", "reescrever", // pt
		"替换", "覆盖", "改写", "置き換え", "上書き", // zh, ja
	},
}

// confirmWords label the accepting button of a confirmation dialog; they
// are sensitive when the dialog around them asks about a sensitive action
// ("Delete 3 items?" → "OK").
var confirmWords = []string{
	"ok", "okay", "yes", "confirm", "continue", "accept", "proceed", "agree", "i agree", "sure", "do it", "done", "apply",
	"si", "aceptar", "confirmar", "continuar", "oui", "confirmer", "continuer", "accepter", "d accord",
	"ja", "bestatigen", "weiter", "akzeptieren", "sim", "prosseguir",
	"确定", "確定", "是", "好", "确认", "確認", "继续", "繼續", "はい", "続行", "承認",
}

// safeWords label elements that back out of an action; an element whose
// whole label is one of them is never sensitive, whatever its dialog says.
var safeWords = []string{
	"cancel", "no", "not now", "keep", "close", "back", "dismiss", "later", "never", "end call", "hang up", "hold call",
	"cancelar", "no", "annuler", "non", "abbrechen", "nein", "nao", "取消", "否", "キャンセル", "いいえ",
}

// navigationNouns follow a sensitive word in labels that name a place, a
// list or a setting rather than the action itself ("Call log",
// "Recently deleted", "Payment methods", "Sent").
var navigationNouns = []string{
	"log", "logs", "history", "settings", "setting", "options", "method", "methods", "list", "folder", "items",
	"waiting", "forwarding", "blocking", "info", "details", "duration", "numbers", "contacts",
}

// inCallWords label the controls of a call in progress — the in-call
// screen of the platform's dialer and of calling apps (English, Spanish,
// French, German, Portuguese, Chinese, Japanese). A screen carrying one
// is a call placed; an action the UI transition graph knows to lead there
// places a call (Target.Next).
var inCallWords = []string{
	"end call", "hang up", "hangup", "end the call",
	"finalizar llamada", "colgar", "raccrocher", "terminer l'appel", "auflegen", "anruf beenden",
	"encerrar chamada", "terminar chamada", "挂断", "结束通话", "通話を終了", "通話終了",
}
