#include "ui/lab/opencl_highlighter.hpp"

#include <QColor>
#include <QFont>
#include <QStringList>

namespace clscope::ui {

namespace {

QRegularExpression words(const QStringList& list) {
    return QRegularExpression("\\b(" + list.join('|') + ")\\b");
}

QStringList vectorTypes() {
    QStringList out;
    for (const char* base : {"char", "uchar", "short", "ushort", "int", "uint", "long", "ulong",
                             "float", "double", "half"})
        for (const char* n : {"2", "3", "4", "8", "16"})
            out << QString(base) + n;
    return out;
}

} // namespace

OpenClHighlighter::OpenClHighlighter(QTextDocument* document) : QSyntaxHighlighter(document) {
    const QStringList keywords{"if",     "else",     "for",    "while", "do",      "return",
                               "break",  "continue", "switch", "case",  "default", "goto",
                               "sizeof", "struct",   "union",  "enum",  "typedef", "inline",
                               "static", "true",     "false"};
    const QStringList types =
        QStringList{"void",      "bool",     "char",   "uchar",     "short",     "ushort", "int",
                    "uint",      "long",     "ulong",  "float",     "double",    "half",   "size_t",
                    "ptrdiff_t", "unsigned", "signed", "image2d_t", "sampler_t", "event_t"} +
        vectorTypes();
    const QStringList qualifiers{"__kernel",
                                 "kernel",
                                 "__global",
                                 "global",
                                 "__local",
                                 "local",
                                 "__constant",
                                 "constant",
                                 "__private",
                                 "private",
                                 "const",
                                 "volatile",
                                 "restrict",
                                 "__attribute__",
                                 "__read_only",
                                 "__write_only",
                                 "read_only",
                                 "write_only",
                                 "reqd_work_group_size"};
    rules_ = {
        {"keyword", words(keywords)},
        {"type", words(types)},
        {"qualifier", words(qualifiers)},
        {"number", QRegularExpression(
                       "\\b(0[xX][0-9a-fA-F]+[uUlL]*|[0-9]+\\.?[0-9]*([eE][-+]?[0-9]+)?[fFuUlLhH]*"
                       "|\\.[0-9]+([eE][-+]?[0-9]+)?[fF]?)\\b")},
        {"string", QRegularExpression("\"([^\"\\\\]|\\\\.)*\"")},
        {"preprocessor", QRegularExpression("^\\s*#.*$")},
        {"comment", QRegularExpression("//.*$")}};
}

QTextCharFormat OpenClHighlighter::formatOf(const QString& kind) const {
    QTextCharFormat f;
    if (kind == "keyword") f.setForeground(QColor(0x00, 0x33, 0x99)), f.setFontWeight(QFont::Bold);
    if (kind == "type") f.setForeground(QColor(0x00, 0x7a, 0x7a));
    if (kind == "qualifier")
        f.setForeground(QColor(0x8b, 0x00, 0x8b)), f.setFontWeight(QFont::Bold);
    if (kind == "number") f.setForeground(QColor(0xb0, 0x50, 0x00));
    if (kind == "string") f.setForeground(QColor(0x20, 0x80, 0x20));
    if (kind == "preprocessor") f.setForeground(QColor(0x80, 0x60, 0x00));
    if (kind == "comment") f.setForeground(QColor(0x60, 0x80, 0x60)), f.setFontItalic(true);
    return f;
}

void OpenClHighlighter::highlightBlock(const QString& text) {
    for (const Rule& rule : rules_) { // later rules (comments) paint over earlier ones
        const QTextCharFormat format = formatOf(rule.kind);
        for (auto it = rule.pattern.globalMatch(text); it.hasNext();) {
            const auto m = it.next();
            setFormat(int(m.capturedStart()), int(m.capturedLength()), format);
        }
    }
    highlightBlockComments(text);
}

// /* ... */ comments, also across lines (block state 1: inside one).
void OpenClHighlighter::highlightBlockComments(const QString& text) {
    setCurrentBlockState(0);
    const QTextCharFormat format = formatOf("comment");
    bool continued = previousBlockState() == 1;
    qsizetype start = continued ? 0 : text.indexOf(commentStart_);
    while (start >= 0) {
        const auto end = commentEnd_.match(text, start + (continued ? 0 : 2));
        continued = false;
        qsizetype length = 0;
        if (!end.hasMatch()) {
            setCurrentBlockState(1);
            length = text.size() - start;
        } else {
            length = end.capturedEnd() - start;
        }
        setFormat(int(start), int(length), format);
        start = text.indexOf(commentStart_, start + length);
    }
}

} // namespace clscope::ui
